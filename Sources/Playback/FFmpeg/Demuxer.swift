import CFFmpeg
import MediaCore
import Subtitles
import Web

/// Owns an `AVFormatContext`: opens a file or URL and reads its packets.
///
/// Opening is guarded by an interrupt callback, so a stalled server or a `close()` from
/// another thread ends a blocking read instead of hanging the demux thread.
final class Demuxer: @unchecked Sendable {
    // @unchecked: the context is used by the demux thread only; `interrupt` is atomic.
    /// FFmpeg's context, or a sandboxed worker's stand-in (`cff_standin_alloc`): that has
    /// only the public fields, so each method below that calls libavformat answers for a
    /// stand-in first, and no caller may give `ctx` to libavformat itself.
    private(set) var ctx: UnsafeMutablePointer<AVFormatContext>
    private let interrupt: Interrupt
    /// Our own AVIOContext for web media; closed after the format context.
    private let io: CustomIO?
    /// The sandboxed worker whose demuxer this stands in for, `ctx` its stand-in context;
    /// nil when FFmpeg's demuxer runs here.
    private let sandboxed: SandboxedContainer?
    /// Opens a playlist's parts when this is a worker's demuxer of web media.
    private let opener: ChannelOpener?

    /// What `read` found.
    enum ReadResult {
        case packet
        case again
        case endOfFile
        case failed(AVError)
    }

    /// Settings for opening, from `SourceOptions`.
    /// `interrupt`: the caller's own, so that it can cancel the open (Player.close).
    /// `io`: bytes the caller already has (`MediaProbe`); `url` then only names them.
    /// `opener`: opens the parts a playlist names instead of FFmpeg (a sandboxed worker's
    /// `ChannelOpener`); it lives as long as the demuxer.
    init(url: String, options: SourceOptions, interrupt given: Interrupt? = nil, io memory: CustomIO? = nil,
         opener: ChannelOpener? = nil) throws(AVError) {
        interrupt = given ?? Interrupt(timeout: options.effectiveTimeout)
        guard let c = avformat_alloc_context() else { throw AVError(message: "out of memory") }
        c.pointee.interrupt_callback = interrupt.callback
        self.opener = opener
        opener?.install(on: c)
        interrupt.arm()
        // Web media may come from the caches, or through CachingIO (which copies
        // it into the cache as it plays); then FFmpeg reads our AVIOContext.
        let route: SourceRoute.Opened
        do throws(AVError) {
            if let memory {
                route = SourceRoute.Opened(url: url, io: memory)
            } else {
                route = try SourceRoute.open(url: url, options: options, interrupt: c.pointee.interrupt_callback)
            }
        } catch {
            avformat_free_context(c)
            throw AVError(code: error.code, message: "cannot open \(SourceOptions.displayName(url)): \(error.message)")
        }
        io = route.io
        sandboxed = nil
        if let pb = route.io?.context {
            c.pointee.pb = pb
            c.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        var dict: OpaquePointer? = nil
        defer { av_dict_free(&dict) }
        for (k, v) in options.formatOptions(for: route.url) { av_dict_set(&dict, k, v, 0) }
        // HLS would reuse its HTTP connection for the next part by reaching into FFmpeg's
        // own HTTP reader, which a part opened by the opener is not.
        if opener != nil { av_dict_set(&dict, "http_persistent", "0", 0) }
        var cp: UnsafeMutablePointer<AVFormatContext>? = c
        // The URL's bytes, not its text: a file name that is not UTF-8 opens as it is named.
        let status = FileName.withCString(route.url) { avformat_open_input(&cp, $0, nil, &dict) }
        guard status >= 0, let opened = cp else {
            // avformat_open_input frees the context on failure (but not a custom pb).
            let reason = route.io?.failure
            route.io?.close()
            if let reason { throw AVError(code: status, message: "cannot open \(SourceOptions.displayName(url)): \(reason.message)") }
            throw AVError(code: status, "cannot open \(SourceOptions.displayName(url))")
        }
        ctx = opened
        let info = Demuxer.findStreams(opened)
        interrupt.disarm()
        // A download that broke while probing (a stall, say) fails the open in its own words.
        if info < 0 || io?.failure != nil {
            // Every stored property is set, so throwing runs deinit, which closes the
            // context and the I/O; closing them here too would free them twice.
            let reason = io?.failure
            if let reason { throw AVError(code: reason.code, message: "cannot open \(SourceOptions.displayName(url)): \(reason.message)") }
            throw AVError(code: info, "cannot read \(SourceOptions.displayName(url))")
        }
    }

    /// Reads the container `sandboxed` opened in its worker: `ctx` is its stand-in.
    init(sandboxed container: SandboxedContainer, interrupt given: Interrupt) {
        interrupt = given
        io = nil
        opener = nil
        sandboxed = container
        ctx = container.context
    }

    deinit {
        // A stand-in context is its container's to free.
        guard sandboxed == nil else { return }
        var p: UnsafeMutablePointer<AVFormatContext>? = ctx
        avformat_close_input(&p)
        io?.close()
    }

    /// Why the web download failed, or the worker reading the container stopped, in words.
    var ioFailure: AVError? { sandboxed?.failure ?? io?.failure }

    /// Whether the container is read by a sandboxed worker.
    var isSandboxed: Bool { sandboxed != nil }

    /// Why the sandboxed worker reading the container stopped, once it did.
    var sandboxStopped: AVError? { sandboxed?.workerStopped }

    /// The ASS header the sandboxed worker's decoder made for text subtitle stream `index`,
    /// whose events it decodes itself; nil when the container is read here, or for any other
    /// stream.
    func workerSubtitleHeader(_ index: Int) -> String? {
        guard let d = sandboxed?.description, d.streams.indices.contains(index) else { return nil }
        return d.streams[index].subtitleHeader
    }

    /// The subtitle events the sandboxed worker decoded since the last call, by stream.
    func takeCues() -> [(stream: Int, cues: [SubtitleCue])] { sandboxed?.takeCues() ?? [] }

    /// Makes blocking I/O return at once, from any thread.
    func cancel() {
        interrupt.cancel()
        sandboxed?.cancel()
    }

    var formatName: String { sandboxed?.description.format ?? String(cString: ctx.pointee.iformat.pointee.name) }

    /// The container format's long name ("QuickTime / MOV"), when FFmpeg has one.
    var longName: String? {
        if let sandboxed { return sandboxed.description.longName }
        return ctx.pointee.iformat?.pointee.long_name.map { String(cString: $0) }
    }

    /// The best stream of `type` by FFmpeg's rule (the default, with the most frames seen
    /// while probing), or nil.
    func bestStream(_ type: AVMediaType) -> Int? {
        if let d = sandboxed?.description {
            let i = type == AVMEDIA_TYPE_VIDEO ? d.bestVideo : type == AVMEDIA_TYPE_AUDIO ? d.bestAudio : -1
            return i >= 0 ? i : nil
        }
        let i = av_find_best_stream(ctx, type, -1, -1, nil, 0)
        return i >= 0 ? Int(i) : nil
    }

    var streamCount: Int { Int(ctx.pointee.nb_streams) }

    /// FFmpeg's short name of stream `index`'s codec ("h264"): from the worker's description
    /// when the container is read there, so the viewer needs no libavcodec for it.
    func codecName(_ index: Int) -> String {
        if let d = sandboxed?.description {
            return d.streams.indices.contains(index) ? d.streams[index].codec.name ?? "unknown" : "unknown"
        }
        return String(cString: avcodec_get_name(stream(index).pointee.codecpar.pointee.codec_id))
    }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> { ctx.pointee.streams[index]! }

    /// The container's chapters with a finite start, in order (Matroska and MP4 carry them).
    var chapters: [Chapter] {
        if let sandboxed { return sandboxed.chapters }
        let n = Int(ctx.pointee.nb_chapters)
        guard n > 0, n <= 10_000, let list = ctx.pointee.chapters else { return [] }
        return (0..<n).compactMap { i -> Chapter? in
            guard let c = list[i] else { return nil }
            let start = Double(c.pointee.start) * av_q2d(c.pointee.time_base)
            guard start.isFinite, start >= 0 else { return nil }
            return Chapter(start: start, title: StreamFacts.tag(c.pointee.metadata, "title"))
        }.sorted { $0.start < $1.start }
    }

    /// Duration in seconds, if the container knows it.
    var duration: Double? {
        let d = ctx.pointee.duration
        return d > 0 && d != cff_nopts ? Double(d) / Double(AV_TIME_BASE) : nil
    }

    /// Reads the next packet into `packet`. A network read that takes longer than the
    /// timeout counts as a failure.
    /// `wanted`: the streams whose packets are wanted (nil: all); a sandboxed worker skips
    /// the others rather than send them over.
    func read(into packet: Packet, wanted: [Int]? = nil) -> ReadResult {
        if let sandboxed { return sandboxed.read(into: packet, wanted: wanted) }
        interrupt.arm()
        let r = av_read_frame(ctx, packet.raw)
        interrupt.disarm()
        if r >= 0 { return .packet }
        if r == cff_averror(EAGAIN) { return .again }
        // A demuxer may call a broken download "end of file"; CachingIO knows better.
        if let f = io?.failure { return .failed(f) }
        if r == cff_averror_eof { return .endOfFile }
        if let pb = ctx.pointee.pb, avio_feof(pb) != 0, pb.pointee.error == 0 { return .endOfFile }
        return .failed(io?.failure ?? AVError(code: r, "read failed"))
    }

    /// Seeks so that the next packets start at or before `seconds`.
    func seek(to seconds: Double) -> Bool {
        // Clamped so no caller's number can overflow the conversion (a trap, not an error).
        if let sandboxed { return sandboxed.seek(to: seconds) }
        let ts = Int64(max(0, min(seconds.isFinite ? seconds : 0, 1e12)) * Double(AV_TIME_BASE))
        interrupt.arm()
        defer { interrupt.disarm() }
        let r = avformat_seek_file(ctx, -1, Int64.min, ts, ts, 0)
        if r >= 0 { return true }
        return av_seek_frame(ctx, -1, ts, cff_seek_backward()) >= 0
    }

    /// Bytes read so far and the total size, for the buffered range of a download.
    var byteProgress: (position: Int64, size: Int64)? {
        if let sandboxed { return sandboxed.byteProgress }
        guard let pb = ctx.pointee.pb else { return nil }
        let size = avio_size(pb)
        return size > 0 ? (avio_tell(pb), size) : nil
    }
}
