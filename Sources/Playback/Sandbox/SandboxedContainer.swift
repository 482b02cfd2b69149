import CFFmpeg
import FoundationEssentials
import Glibc
import MediaCore
import Synchronization
import Web

/// A video's or song's container read by a sandboxed worker of its own: what the player's
/// demuxer stands on when the sandbox is on.
///
/// FFmpeg's demuxers (MP4, Matroska, MPEG-TS, Ogg, MP3 and the rest) parse every byte of a
/// file before any decoder sees it, and a crafted one has been enough to take a player.
/// Here they run in a process with no files but the one handed over, no network and no
/// display. The viewer keeps a stand-in format context (`context`), built from what the
/// worker found (`ContainerDescription`): the streams, their codec parameters and tags,
/// the chapters. Each packet is asked for and read back from the worker's packet memfd.
/// Used by the demux thread alone; `cancel` comes from any thread.
final class SandboxedContainer: @unchecked Sendable {
    // @unchecked: every field is the demux thread's but `cancelled` (atomic) and `stopped` (locked).
    /// The stand-in: streams and facts only, no demuxer behind it.
    let context: UnsafeMutablePointer<AVFormatContext>
    let description: ContainerDescription
    private let worker: DecodeWorker
    private let pool: DecodeWorkers
    private let name: String
    /// Web media read here for the worker; nil for a local file.
    private let source: ChannelReads.Source?
    /// How far into the web source the worker has read, for the buffered range.
    private var reached: Int64 = 0
    /// The worker's packet memfd, once it has sent it.
    private var area: Int32 = -1
    /// Why no more packets will come: the worker stopped, or answered nonsense. Read from
    /// any thread (the session shows it).
    private let stopped = Locked<AVError?>(nil)
    private let cancelled = Atomic<Bool>(false)
    /// Seconds the worker may take to open the file (probing reads and decodes a little of
    /// each stream) before it is taken to hang and stopped.
    static let timeout = 10.0
    /// Seconds one packet may take: a local file's come in microseconds, so a worker that
    /// takes longer hangs, and the item ends as a hung decoder's does.
    static let readTime = 3.0
    /// Seconds a seek may take: a file without an index is read through to the place.
    static let seekTime = 6.0

    private init(context: UnsafeMutablePointer<AVFormatContext>, description: ContainerDescription, worker: DecodeWorker,
                 pool: DecodeWorkers, name: String, source: ChannelReads.Source?) {
        self.context = context
        self.description = description
        self.worker = worker
        self.pool = pool
        self.name = name
        self.source = source
    }

    deinit {
        pool.retire(worker)
        source?.io.close()
        if area >= 0 { close(area) }
        avformat_free_context(context)
    }

    /// Where a container is read.
    enum Opening {
        case sandboxed(SandboxedContainer)
        /// In this process: the sandbox is off, the source is a pipe, a device or a playlist
        /// whose parts FFmpeg fetches itself, or (auto) no worker can be had. The web
        /// source already opened for it, if one was.
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
        guard memory != nil || SourceOptions.isNetwork(url), !namesPlaylist(url) else { return .here(nil) }
        let name = SourceOptions.displayName(url)
        let io: CustomIO
        if let memory {
            io = memory
        } else {
            interrupt.arm()
            let route: SourceRoute.Opened
            do throws(AVError) {
                route = try SourceRoute.open(url: url, options: options.source, interrupt: interrupt.callback)
            } catch {
                interrupt.disarm()
                throw AVError(code: error.code, message: "cannot open \(name): \(error.message)")
            }
            interrupt.disarm()
            guard let opened = route.io else {
                // A whole copy in the disk cache: read as the local file it is.
                guard route.url.hasPrefix("file:") else { return .here(nil) }
                return try open(path: String(route.url.dropFirst(5)), name: name, options: options, cancelled: cancelled)
            }
            io = opened
        }
        if holdsPlaylist(io) { return .here(io) }
        let source = ChannelReads.Source(io: io, interrupt: interrupt)
        let size = io.seek(to: 0, whence: Int32(AVSEEK_SIZE))
        let request = WorkerMessage(kind: .containerOpen, numbers: [1, size], text: name)
        guard let opened = try open(request, name: name, source: source, options: options, cancelled: cancelled) else {
            return .here(io)
        }
        return .sandboxed(opened)
    }

    /// Opens the local file at `path` in a worker (`name`: what the user calls it, when it
    /// is a web address's copy on disk).
    private static func open(path: String, name given: String?, options: PlayerOptions,
                             cancelled: @escaping () -> Bool) throws(AVError) -> Opening {
        guard let file = try? ThumbnailMaker.open(path) else { return .here(nil) }
        defer { close(file.fd) }
        let name = given ?? SourceOptions.displayName(path)
        let request = WorkerMessage(kind: .containerOpen, numbers: [0], text: name, fd: file.fd)
        return try open(request, name: name, source: nil, options: options, cancelled: cancelled).map { .sandboxed($0) } ?? .here(nil)
    }

    /// Sends the open `request` to a containers worker; nil when none can be had and the
    /// mode lets this process read the source.
    private static func open(_ request: WorkerMessage, name: String, source: ChannelReads.Source?, options: PlayerOptions,
                             cancelled: @escaping () -> Bool) throws(AVError) -> SandboxedContainer? {
        let pool = DecodeWorkers.shared
        guard let worker = try pool.confinedWorker(.containers, name: name, options: options) else { return nil }
        pool.startAhead(kind: .containers)
        let outcome = worker.exchange(request, timeout: timeout, cancelled: cancelled, reads: source?.answer)
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
            if let failure = source?.io.failure {
                throw AVError(code: failure.code, message: "cannot open \(name): \(failure.message)")
            }
            throw AVError(code: code < 0 ? code : cff_averror(EINVAL), message: m.text.isEmpty ? "cannot read \(name)" : m.text)
        }
        guard let description = described(m), let context = standIn(description) else {
            pool.retire(worker)
            throw AVError(message: "\(name): the demuxer's answer was malformed")
        }
        return SandboxedContainer(context: context, description: description, worker: worker, pool: pool, name: name,
                                  source: source)
    }

    /// Whether a web address names a playlist (HLS, DASH) by its extension: FFmpeg fetches
    /// its parts itself, which a worker without a network cannot.
    static func namesPlaylist(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return ["m3u8", "m3u", "mpd"].contains(ext)
    }

    /// Whether the first bytes `io` reads are a playlist's (left at its start again).
    private static func holdsPlaylist(_ io: CustomIO) -> Bool {
        var head = [UInt8](repeating: 0, count: 64)
        let n = head.withUnsafeMutableBufferPointer { io.read(into: $0.baseAddress!, size: 64) }
        _ = io.seek(to: 0, whence: SEEK_SET)
        guard n > 0 else { return false }
        let text = String(decoding: head.prefix(Int(n)), as: UTF8.self)
        return text.hasPrefix("#EXTM3U") || text.contains("<MPD")
    }

    /// The description in the answer `m`; nil when it is malformed.
    private static func described(_ m: WorkerMessage) -> ContainerDescription? {
        guard m.fd >= 0, let count = m.numbers.first, (1...Int64(ContainerDescription.largest)).contains(count),
              let p = SealedBytes.map(m.fd, count: Int(count)) else { return nil }
        defer { munmap(p, Int(count)) }
        let json = Data(bytes: p, count: Int(count))
        guard let d = try? JSONDecoder().decode(ContainerDescription.self, from: json), d.isSound else { return nil }
        return d
    }

    /// A format context holding `d`'s facts and no demuxer; nil without memory.
    private static func standIn(_ d: ContainerDescription) -> UnsafeMutablePointer<AVFormatContext>? {
        guard let c = avformat_alloc_context() else { return nil }
        c.pointee.duration = d.duration
        c.pointee.start_time = d.start
        c.pointee.bit_rate = d.bitRate
        for t in d.tags where t.count == 2 { av_dict_set(&c.pointee.metadata, t[0], t[1], 0) }
        for s in d.streams {
            guard let st = avformat_new_stream(c, nil), s.codec.fill(st.pointee.codecpar) else {
                avformat_free_context(c)
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
            if let matrix = s.matrix, let sd = av_stream_new_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, 36) {
                matrix.withUnsafeBytes { _ = memcpy(sd, $0.baseAddress!, 36) }
            }
        }
        return c
    }

    /// The chapters with a finite start, in order.
    var chapters: [Chapter] {
        description.chapters.compactMap { c -> Chapter? in
            let start = Double(c.start) * av_q2d(ContainerDescription.rational(c.timeBase))
            guard start.isFinite, start >= 0 else { return nil }
            return Chapter(start: start, title: c.title.flatMap { $0.isEmpty ? nil : $0 })
        }.sorted { $0.start < $1.start }
    }

    /// Reads the next packet of a stream in `wanted` (nil: any) into `packet`.
    func read(into packet: Packet, wanted: [Int]?) -> Demuxer.ReadResult {
        if let failure = workerStopped { return .failed(failure) }
        let mask = wanted.map(ContainerPackets.mask) ?? [Int64](repeating: -1, count: (ContainerDescription.mostStreams + 63) / 64)
        let m: WorkerMessage
        do throws(AVError) {
            m = try pool.answer(worker.exchange(WorkerMessage(kind: .containerRead, numbers: mask), timeout: Self.readTime,
                                                cancelled: { self.cancelled.load(ordering: .relaxed) }, reads: reads),
                                worker: worker, name: name)
        } catch {
            // Closed mid-read: the worker is gone, but nothing failed.
            if cancelled.load(ordering: .relaxed) { return .failed(error) }
            return .failed(stop(error))
        }
        defer { if m.fd >= 0 { close(m.fd) } }
        switch m.kind {
        case .containerPacket:
            if m.fd >= 0 {
                if area >= 0 { close(area) }
                area = dup(m.fd)
            }
            guard ContainerPackets.take(m, area: area, streams: Int(context.pointee.nb_streams), into: packet) else {
                return .failed(stop(AVError(message: "\(name): the demuxer's answer was malformed")))
            }
            return .packet
        case .containerEnd where m.numbers.first == 0:
            return .endOfFile
        case .containerEnd where m.numbers.first == 1:
            return .again
        case .containerEnd:
            let code = Int32(truncatingIfNeeded: m.numbers.count > 1 ? m.numbers[1] : 0)
            return .failed(AVError(code: code < 0 ? code : cff_averror(EIO), message: m.text.isEmpty ? "read failed" : m.text))
        default:
            return .failed(stop(AVError(message: m.text.isEmpty ? "\(name): the demuxer failed" : m.text)))
        }
    }

    /// Seeks so that the next packets start at or before `seconds`.
    func seek(to seconds: Double) -> Bool {
        guard workerStopped == nil else { return false }
        let request = WorkerMessage(kind: .containerSeek, numbers: [Int64(bitPattern: seconds.bitPattern)])
        let m: WorkerMessage
        do throws(AVError) {
            m = try pool.answer(worker.exchange(request, timeout: Self.seekTime,
                                                cancelled: { self.cancelled.load(ordering: .relaxed) }, reads: reads),
                                worker: worker, name: name)
        } catch {
            if !cancelled.load(ordering: .relaxed) { _ = stop(error) }
            return false
        }
        if m.fd >= 0 { close(m.fd) }
        return m.kind == .containerSeeked && m.numbers.first == 1
    }

    /// Why no more packets will come, once the worker stopped or answered nonsense, or why
    /// the web source failed, in the transport's words.
    var failure: AVError? { stopped.withLock { $0 } ?? source?.io.failure }

    /// Whether the worker stopped or answered nonsense: the item ends as a stopped decoder's.
    var workerStopped: AVError? { stopped.withLock { $0 } }

    /// The worker's reads of a web source, answered here (nil for a file).
    private var reads: ((WorkerMessage) -> WorkerMessage)? {
        guard let source else { return nil }
        return { [self] m in
            let answer = source.answer(m)
            if answer.kind == .bytes, let n = answer.numbers.first, n > 0, m.numbers.count >= 2 {
                reached = max(reached, m.numbers[0] + n)
            }
            return answer
        }
    }

    /// Bytes of a web source read so far and its size, for the buffered range.
    var byteProgress: (position: Int64, size: Int64)? {
        guard let source else { return nil }
        let size = source.io.seek(to: 0, whence: Int32(AVSEEK_SIZE))
        return size > 0 ? (min(reached, size), size) : nil
    }

    /// Ends a read or seek under way, from any thread: the item is closing.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Keeps `error` as why no packet will come again, and stops the worker.
    private func stop(_ error: AVError) -> AVError {
        let kept = stopped.withLock { s -> AVError in
            if s == nil { s = error }
            return s ?? error
        }
        worker.stop()
        return kept
    }
}
