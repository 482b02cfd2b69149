import CFFmpeg

/// Owns one `AVFrame`, freed in deinit.
final class Frame: @unchecked Sendable {
    // @unchecked: a frame is written by one decode thread, then only read after it was
    // handed over through a queue.
    let raw: UnsafeMutablePointer<AVFrame>

    init() {
        guard let f = av_frame_alloc() else { fatalError("out of memory allocating an AVFrame") }
        raw = f
    }

    /// Takes ownership of a frame allocated elsewhere (a cropped clone).
    init(adopting frame: UnsafeMutablePointer<AVFrame>) {
        raw = frame
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = raw
        av_frame_free(&f)
    }
}
