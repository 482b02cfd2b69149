import CFFmpeg
import MediaCore

/// Owns an `AVCodecContext` opened for one stream.
final class Decoder: @unchecked Sendable {
    // @unchecked: used by exactly one decode thread after construction.
    let ctx: UnsafeMutablePointer<AVCodecContext>
    /// The stream's time base, to turn timestamps into seconds.
    let timeBase: AVRational

    /// What `receive` produced.
    enum ReceiveResult {
        case frame
        case needsInput
        case endOfStream
        case failed(AVError)
    }

    /// `lowres`: decode at 1/2^lowres of the size where the codec can (capped by its
    /// `max_lowres`; 0 everywhere but JPEG and a few old codecs).
    convenience init(stream: UnsafeMutablePointer<AVStream>, threads: Int, maxPixels: Int, lowres: Int = 0) throws(AVError) {
        try self.init(codec: stream.pointee.codecpar!, timeBase: stream.pointee.time_base, threads: threads,
                      maxPixels: maxPixels, lowres: lowres)
    }

    /// A decoder for a stream known by its parameters alone (`StreamParameters`).
    convenience init(parameters: StreamParameters, threads: Int, maxPixels: Int) throws(AVError) {
        try self.init(codec: parameters.raw, timeBase: parameters.timeBase, threads: threads, maxPixels: maxPixels, lowres: 0)
    }

    /// A decoder made from bare parameters, with `prepare` given the context before it
    /// opens: a sandboxed worker gives its video decoder an allocator of its own there.
    convenience init(codec par: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational, threads: Int, maxPixels: Int,
                     prepare: (UnsafeMutablePointer<AVCodecContext>) -> Void) throws(AVError) {
        try self.init(codec: par, timeBase: timeBase, threads: threads, maxPixels: maxPixels, lowres: 0, prepare: prepare)
    }

    private init(codec par: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational, threads: Int, maxPixels: Int,
                 lowres: Int, prepare: (UnsafeMutablePointer<AVCodecContext>) -> Void = { _ in }) throws(AVError) {
        guard let codec = avcodec_find_decoder(par.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(par.pointee.codec_id))
            throw AVError(message: "no decoder for codec \(name)")
        }
        guard let c = avcodec_alloc_context3(codec) else { throw AVError(message: "out of memory") }
        var cp: UnsafeMutablePointer<AVCodecContext>? = c
        do {
            try check(avcodec_parameters_to_context(c, par), "bad codec parameters")
            c.pointee.pkt_timebase = timeBase
            // Frame and slice threads from libavcodec itself; 0 = one per core.
            c.pointee.thread_count = Int32(threads)
            c.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            // A second guard behind the up-front size check: the decoder refuses frames
            // above the pixel budget instead of allocating them.
            c.pointee.max_pixels = Int64(maxPixels)
            c.pointee.lowres = Int32(max(0, min(lowres, Int(codec.pointee.max_lowres))))
            prepare(c)
            try check(avcodec_open2(c, codec, nil), "cannot open the \(String(cString: codec.pointee.name)) decoder")
        } catch {
            avcodec_free_context(&cp)
            throw error
        }
        ctx = c
        self.timeBase = timeBase
    }

    /// libavcodec threads for playing `stream` in real time: as few as its pixel rate needs.
    ///
    /// Every frame thread holds frames of its own and adds a frame of delay, and on a
    /// stream one core decodes several times faster than it plays they only cost memory
    /// and CPU: 720p30 H.264 took 79 MiB and 2.6 CPU s per 10 s with one thread, 86 MiB and
    /// 2.9 s with libavcodec's automatic count (3 on 2 cores). Heavier codecs and more
    /// pixels get more threads; 0 lets libavcodec use one per core (plus one).
    static func realTimeThreads(for stream: UnsafeMutablePointer<AVStream>) -> Int {
        let par = stream.pointee.codecpar!
        var fps = av_q2d(stream.pointee.avg_frame_rate)
        if !fps.isFinite || fps <= 0 { fps = av_q2d(stream.pointee.r_frame_rate) }
        return realTimeThreads(width: Int(par.pointee.width), height: Int(par.pointee.height),
                               fps: fps, codec: par.pointee.codec_id)
    }

    static func realTimeThreads(width: Int, height: Int, fps: Double, codec: AVCodecID) -> Int {
        // Unknown rates (stills, some streams) are taken as 30 frames a second.
        let rate = fps.isFinite && fps > 0 && fps < 1000 ? fps : 30
        var load = Double(width * height) * rate
        // HEVC, VP9 and AV1 cost about twice as much per pixel as H.264 in software.
        if codec == AV_CODEC_ID_HEVC || codec == AV_CODEC_ID_VP9 || codec == AV_CODEC_ID_AV1 { load *= 2 }
        let hd720p30 = 1280.0 * 720 * 30 * 1.05, hd1080p30 = 1920.0 * 1080 * 30 * 1.05
        if load <= hd720p30 { return 1 }
        if load <= hd1080p30 { return 2 }
        return 0
    }

    deinit {
        var cp: UnsafeMutablePointer<AVCodecContext>? = ctx
        avcodec_free_context(&cp)
    }

    /// Sends a packet (nil to drain). A decoding error in one packet is not fatal: damaged
    /// media plays what decodes, so the caller only counts it.
    func send(_ packet: Packet?) -> Int32 {
        avcodec_send_packet(ctx, packet?.raw)
    }

    func receive(into frame: Frame) -> ReceiveResult {
        let r = avcodec_receive_frame(ctx, frame.raw)
        if r >= 0 { return .frame }
        if r == cff_averror(EAGAIN) { return .needsInput }
        if r == cff_averror_eof { return .endOfStream }
        return .failed(AVError(code: r, "decoding failed"))
    }

    /// Forgets buffered state after a seek or after draining.
    func flush() { avcodec_flush_buffers(ctx) }

    /// Seconds for a timestamp in this stream's time base, nil when unknown.
    func seconds(_ ts: Int64) -> Double? {
        ts == cff_nopts ? nil : Double(ts) * av_q2d(timeBase)
    }
}
