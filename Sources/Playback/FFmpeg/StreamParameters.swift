import CFFmpeg

/// A copy of one container stream's codec parameters and time base: all a decoder needs to
/// be made, without the demuxer. The demux stage sends it with the start of each seek
/// generation, so the sound stage can switch tracks without reaching into the demuxer
/// (which a decoder in another process could not).
final class StreamParameters: @unchecked Sendable {
    // @unchecked: immutable once copied; read by the one stage it is sent to.
    /// The stream's index in its container.
    let index: Int
    let raw: UnsafeMutablePointer<AVCodecParameters>
    /// The stream's time base, to turn timestamps into seconds.
    let timeBase: AVRational

    /// A copy of `stream`'s parameters; nil when FFmpeg has no memory for it.
    init?(_ stream: UnsafeMutablePointer<AVStream>) {
        guard let p = avcodec_parameters_alloc() else { return nil }
        guard avcodec_parameters_copy(p, stream.pointee.codecpar) >= 0 else {
            var q: UnsafeMutablePointer<AVCodecParameters>? = p
            avcodec_parameters_free(&q)
            return nil
        }
        raw = p
        index = Int(stream.pointee.index)
        timeBase = stream.pointee.time_base
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecParameters>? = raw
        avcodec_parameters_free(&p)
    }
}
