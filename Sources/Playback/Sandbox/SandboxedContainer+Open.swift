import CFFmpeg
import FoundationEssentials
import Glibc
import MediaCore
import Web

/// Opening a container in a worker: which sources go there, the request, and the stand-in
/// context built from the worker's answer.
extension SandboxedContainer {
    /// Where a container is read.
    enum Opening {
        case sandboxed(SandboxedContainer)
        /// In this process: the sandbox is off, the source is a pipe, a device or a local
        /// playlist, or (auto) no worker can be had. The web source already opened for it,
        /// if one was.
        case here(CustomIO?)
    }

    /// Opens `url` (or the web bytes `memory` already holds) in a worker, when the sandbox
    /// and the source allow. Web media is read by this process (its caches, then the
    /// server), each blocking step bounded by `interrupt`, and handed to the worker read by
    /// read. Throws the one line when the source cannot be read or strict finds no worker.
    static func open(url: String, memory: CustomIO?, options: PlayerOptions, interrupt: Interrupt,
                     cancelled: @escaping () -> Bool) throws(AVError) -> Opening {
        guard options.sandbox != .off else { return .here(nil) }
        if memory == nil, url.hasPrefix("file:") { return try open(path: String(url.dropFirst(5)), name: nil, options: options, cancelled: cancelled) }
        guard memory != nil || SourceOptions.isNetwork(url) else { return .here(nil) }
        let name = SourceOptions.displayName(url)
        let io: CustomIO
        if let memory {
            io = memory
        } else {
            // A playlist never comes from the caches (`PlaylistText`): it is fetched each time.
            let route = try open(url, name: name, options: options.source, interrupt: interrupt)
            guard let opened = route.io else {
                // A whole copy in the disk cache: read as the local file it is.
                guard route.url.hasPrefix("file:") else { return .here(nil) }
                return try open(path: String(route.url.dropFirst(5)), name: name, options: options, cancelled: cancelled)
            }
            io = opened
        }
        let sources = ChannelSources(main: ChannelReads.Source(io: io, interrupt: interrupt), options: options.source)
        let size = io.seek(to: 0, whence: Int32(AVSEEK_SIZE))
        var request = WorkerMessage(kind: .containerOpen, numbers: [1, size], text: name)
        // A web playlist (HLS, DASH): the worker gets its address, to find its parts by, and
        // opens each through `sources`. Bytes with no address of their own cannot name any.
        let kind = playlistKind(io)
        if namesPlaylist(url) || kind != nil {
            guard SourceOptions.isNetwork(url) else { return .here(io) }
            if kind == .dash { return try dashHere(io, name: name, options: options) }
            let address = Array(url.utf8)
            guard let fd = address.withUnsafeBytes({ SealedBytes.make([$0], name: "mediaview-url") }) else {
                throw AVError(code: cff_averror(ENOMEM), message: "cannot open \(name): out of memory")
            }
            request = WorkerMessage(kind: .containerOpen, numbers: [1, size, Int64(address.count)], text: name, fd: fd)
        }
        defer { if request.fd >= 0 { close(request.fd) } }
        guard let opened = try open(request, name: name, sources: sources, options: options, cancelled: cancelled) else {
            return .here(io)
        }
        return .sandboxed(opened)
    }

    /// The web source at `url` through the transport and whichever caches `options` hold,
    /// each blocking step bounded by `interrupt`; throws the one line.
    private static func open(_ url: String, name: String, options: SourceOptions, interrupt: Interrupt) throws(AVError) -> SourceRoute.Opened {
        interrupt.arm()
        defer { interrupt.disarm() }
        do throws(AVError) {
            return try SourceRoute.open(url: url, options: options, interrupt: interrupt.callback)
        } catch {
            throw AVError(code: error.code, message: "cannot open \(name): \(error.message)")
        }
    }

    /// Opens the local file at `path` in a worker (`name`: what the user calls it, when it
    /// is a web address's copy on disk).
    static func open(path: String, name given: String?, options: PlayerOptions,
                             cancelled: @escaping () -> Bool) throws(AVError) -> Opening {
        guard let file = try? ThumbnailMaker.open(path) else { return .here(nil) }
        defer { close(file.fd) }
        let name = given ?? SourceOptions.displayName(path)
        let request = WorkerMessage(kind: .containerOpen, numbers: [0], text: name, fd: file.fd)
        return try open(request, name: name, sources: nil, options: options, cancelled: cancelled).map { .sandboxed($0) } ?? .here(nil)
    }

    /// Sends the open `request` to a containers worker; nil when none can be had and the
    /// mode lets this process read the source.
    static func open(_ request: WorkerMessage, name: String, sources: ChannelSources?, options: PlayerOptions,
                             cancelled: @escaping () -> Bool) throws(AVError) -> SandboxedContainer? {
        let pool = DecodeWorkers.shared
        guard let worker = try pool.confinedWorker(.containers, name: name, options: options) else { return nil }
        let outcome = worker.exchange(request, timeout: timeout, cancelled: cancelled, reads: sources?.answer)
        let m: WorkerMessage
        do throws(AVError) { m = try pool.answer(outcome, worker: worker, name: name) } catch {
            worker.stop()
            throw error
        }
        defer { if m.fd >= 0 { close(m.fd) } }
        guard m.kind == .containerOpened else {
            pool.retire(worker)
            let code = Int32(truncatingIfNeeded: m.numbers.first ?? 0)
            // A broken download fails the open in the transport's words, as it does here.
            if let failure = sources?.main.io.failure {
                throw AVError(code: failure.code, message: "cannot open \(name): \(failure.message)")
            }
            throw AVError(code: code < 0 ? code : cff_averror(EINVAL), message: m.text.isEmpty ? "cannot read \(name)" : m.text)
        }
        guard let description = described(m), let context = standIn(description) else {
            pool.retire(worker)
            throw AVError(message: "\(name): the demuxer's answer was malformed")
        }
        return SandboxedContainer(context: context, description: description, worker: worker, pool: pool, name: name,
                                  sources: sources)
    }

    /// Whether a web address names a playlist (HLS, DASH) by its extension: the worker that
    /// reads it is given its address, to find the parts by, and opens each through the
    /// viewer (`ChannelSources`).
    static func namesPlaylist(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return ["m3u8", "m3u", "mpd"].contains(ext)
    }

    /// Which playlist the first bytes `io` reads begin, if any (left at its start again).
    static func playlistKind(_ io: CustomIO) -> PlaylistText.Kind? {
        var head = [UInt8](repeating: 0, count: PlaylistText.head)
        let n = head.withUnsafeMutableBufferPointer { io.read(into: $0.baseAddress!, size: PlaylistText.head) }
        _ = io.seek(to: 0, whence: SEEK_SET)
        guard n > 0 else { return nil }
        return head.withUnsafeBytes { PlaylistText.kind(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(n)))) }
    }

    /// A DASH stream, which this FFmpeg's DASH reader cannot read in a worker: it fetches each
    /// part with its own HTTP (`avio_open2`), past the demuxer's `io_open` that hands a
    /// playlist's parts to the viewer, and a worker has no socket. Strict refuses it; auto
    /// reads it here after one line, as it does any media no worker can take.
    private static func dashHere(_ io: CustomIO, name: String, options: PlayerOptions) throws(AVError) -> Opening {
        let why = "FFmpeg's DASH reader fetches its parts itself"
        guard options.sandbox != .strict else {
            io.close()
            throw AVError(message: "cannot open \(name): a DASH stream cannot be read in the sandbox (\(why)); --sandbox=off plays it")
        }
        options.onWarning("mediaview: \(name): a DASH stream is read outside the sandbox (\(why))")
        return .here(io)
    }

    /// The description in the answer `m`; nil when it is malformed.
    static func described(_ m: WorkerMessage) -> ContainerDescription? {
        guard m.fd >= 0, let count = m.numbers.first, (1...Int64(ContainerDescription.largest)).contains(count),
              let p = SealedBytes.map(m.fd, count: Int(count)) else { return nil }
        defer { munmap(p, Int(count)) }
        let json = Data(bytes: p, count: Int(count))
        guard let d = try? JSONDecoder().decode(ContainerDescription.self, from: json), d.isSound else { return nil }
        return d
    }

    /// A format context holding `d`'s facts and no demuxer; nil without memory. It is made
    /// with libavutil alone (`cff_standin_alloc`), so the viewer of a sandboxed film loads
    /// neither libavformat nor libavcodec, and no function of libavformat may be given it;
    /// `cff_standin_free` frees it.
    static func standIn(_ d: ContainerDescription) -> UnsafeMutablePointer<AVFormatContext>? {
        guard let c = cff_standin_alloc() else { return nil }
        c.pointee.duration = d.duration
        c.pointee.start_time = d.start
        c.pointee.bit_rate = d.bitRate
        for t in d.tags where t.count == 2 { av_dict_set(&c.pointee.metadata, t[0], t[1], 0) }
        for s in d.streams {
            guard let st = cff_standin_new_stream(c), s.codec.fill(st.pointee.codecpar) else {
                cff_standin_free(c)
                return nil
            }
            st.pointee.time_base = ContainerDescription.rational(s.timeBase)
            st.pointee.disposition = s.disposition
            st.pointee.avg_frame_rate = ContainerDescription.rational(s.averageRate)
            st.pointee.r_frame_rate = ContainerDescription.rational(s.realRate)
            st.pointee.sample_aspect_ratio = ContainerDescription.rational(s.aspect)
            st.pointee.nb_frames = s.frames
            st.pointee.duration = s.duration
            st.pointee.start_time = s.start
            for t in s.tags where t.count == 2 { av_dict_set(&st.pointee.metadata, t[0], t[1], 0) }
            if let matrix = s.matrix, let sd = cff_standin_new_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, 36) {
                matrix.withUnsafeBytes { _ = memcpy(sd, $0.baseAddress!, 36) }
            }
        }
        return c
    }
}
