import CFFmpeg
import Glibc

/// Owns one `AVFrame`, freed in deinit.
final class Frame: @unchecked Sendable {
    // @unchecked: a frame is written by one decode thread, then only read after it was
    // handed over through a queue.
    let raw: UnsafeMutablePointer<AVFrame>
    private let storage: Storage

    /// Who owns the frame's planes, and so how the frame is freed.
    private enum Storage {
        /// libavutil: the frame and its buffers are freed by `av_frame_free`.
        case ffmpeg
        /// A mapping of our own (a worker's still), unmapped with the frame.
        case mapping(UnsafeMutableRawBufferPointer)
        /// Part of another frame's planes, kept alive as long as this one.
        case view(Frame)
        /// libavutil's frame, whose plane is this memfd mapped shared (`Frame.shared`); the
        /// memfd is closed with the frame, the mapping when libavutil lets go of the plane.
        case memfd(Int32)
    }

    init() {
        guard let f = av_frame_alloc() else { fatalError("out of memory allocating an AVFrame") }
        raw = f
        storage = .ffmpeg
    }

    /// An empty libavutil frame that owns `memfd`, for `Frame.shared`.
    init(memfd: Int32) {
        guard let f = av_frame_alloc() else { fatalError("out of memory allocating an AVFrame") }
        raw = f
        storage = .memfd(memfd)
    }

    /// The memfd the plane is mapped from, for a frame made by `Frame.shared`.
    var memfd: Int32? {
        if case .memfd(let fd) = storage { return fd }
        return nil
    }

    /// Takes ownership of a frame allocated elsewhere (a cropped clone).
    init(adopting frame: UnsafeMutablePointer<AVFrame>) {
        raw = frame
        storage = .ffmpeg
    }

    /// A frame whose first plane is `mapping` (which it unmaps when freed), made without
    /// libavutil: a viewer that only shows its workers' pictures never loads FFmpeg. Nil
    /// when out of memory. Anything that passes it to libavutil (a clone, a copy) still
    /// works: the plane has no `AVBufferRef`, so FFmpeg copies it.
    init?(plane mapping: UnsafeMutableRawBufferPointer) {
        guard let f = cff_plain_frame() else { return nil }
        raw = f
        storage = .mapping(mapping)
    }

    /// Whether the planes are not FFmpeg's (a frame of `init(plane:)`, or a view of one).
    var isPlain: Bool {
        if case .ffmpeg = storage { return false }
        return true
    }

    /// The part `left`, `top`, `width` x `height` of a plain four-bytes-a-pixel frame, sharing
    /// its plane: a zoomed still is drawn from it without copying the picture. Nil when the
    /// frame is not plain, not one plane of four bytes a pixel, or the part is not inside it.
    func packedPart(left: Int, top: Int, width: Int, height: Int) -> Frame? {
        let f = raw.pointee
        let packed = [AV_PIX_FMT_RGBA, AV_PIX_FMT_BGRA, AV_PIX_FMT_BGR0, AV_PIX_FMT_RGB0].map(\.rawValue).contains(f.format)
        guard isPlain, packed, let base = f.data.0, f.linesize.0 > 0, left >= 0, top >= 0, width >= 1, height >= 1,
              left + width <= Int(f.width), top + height <= Int(f.height), let part = cff_plain_view(raw) else { return nil }
        part.pointee.data.0 = base + top * Int(f.linesize.0) + left * 4
        part.pointee.width = Int32(width)
        part.pointee.height = Int32(height)
        return Frame(part: part, of: self)
    }

    private init(part: UnsafeMutablePointer<AVFrame>, of whole: Frame) {
        raw = part
        storage = .view(whole)
    }

    deinit {
        switch storage {
        case .ffmpeg:
            var f: UnsafeMutablePointer<AVFrame>? = raw
            av_frame_free(&f)
        case .memfd(let fd):
            var f: UnsafeMutablePointer<AVFrame>? = raw
            av_frame_free(&f)
            close(fd)
        case .mapping(let plane):
            // Nothing but the plane was set on it, and that is ours: no libavutil to free it.
            munmap(plane.baseAddress, plane.count)
            free(raw)
        case .view:
            free(raw)
        }
    }
}
