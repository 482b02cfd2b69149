import CFFmpeg
import FoundationEssentials
import Glibc
import MediaCore
import Subtitles
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
    /// The containers worker for the next item, started once this one is under way.
    private var spare = SpareWorker(kind: .containers)
    /// Web media read here for the worker; nil for a local file.
    private let sources: ChannelSources?
    private var source: ChannelReads.Source? { sources?.main }
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
    /// Seconds one packet of a web playlist may take: a live one's demuxer waits for the next
    /// segment up to the playlist's target duration (often 6 s, at most tens) before it
    /// loads the playlist again.
    static let playlistReadTime = 35.0
    /// This container's: `playlistReadTime` for HLS and DASH, else `readTime`.
    private var packetTime: Double { ["hls", "dash"].contains(description.format) ? Self.playlistReadTime : Self.readTime }
    /// Seconds a seek may take: a file without an index is read through to the place.
    static let seekTime = 6.0
    /// Subtitle answers one read takes before it hands back with nothing.
    static let cuesInARow = 64
    /// The streams whose packets the worker decodes into events (`ContainerWork`).
    private let subtitleStreams: Set<Int>
    /// Events the worker decoded, not yet taken by the demux thread.
    private var decodedCues: [(stream: Int, cues: [SubtitleCue])] = []

    /// Takes over `worker`, which opened the container `description` tells of.
    init(context: UnsafeMutablePointer<AVFormatContext>, description: ContainerDescription, worker: DecodeWorker,
                 pool: DecodeWorkers, name: String, sources: ChannelSources?) {
        self.context = context
        self.description = description
        self.worker = worker
        self.pool = pool
        self.name = name
        self.sources = sources
        subtitleStreams = Set(description.streams.indices.filter { description.streams[$0].subtitleHeader != nil })
    }

    deinit {
        pool.retire(worker)
        source?.io.close()
        if area >= 0 { close(area) }
        cff_standin_free(context)
    }

    /// The chapters with a finite start, in order.
    var chapters: [Chapter] {
        description.chapters.compactMap { c -> Chapter? in
            let start = Double(c.start) * av_q2d(ContainerDescription.rational(c.timeBase))
            guard start.isFinite, start >= 0 else { return nil }
            return Chapter(start: start, title: c.title.flatMap { $0.isEmpty ? nil : $0 })
        }.sorted { $0.start < $1.start }
    }

    /// Reads the next packet of a stream in `wanted` (nil: any) into `packet`. The events
    /// of text subtitle streams met on the way are kept for `takeCues`.
    func read(into packet: Packet, wanted: [Int]?) -> Demuxer.ReadResult {
        if let failure = workerStopped { return .failed(failure) }
        spare.startIfDue(in: pool)
        let mask = wanted.map(ContainerPackets.mask) ?? [Int64](repeating: -1, count: (ContainerDescription.mostStreams + 63) / 64)
        // A stretch of subtitle packets and nothing else (a file of text alone) hands back to
        // the demux thread now and then, so a seek or a close is not kept waiting.
        for _ in 0..<Self.cuesInARow {
            let m: WorkerMessage
            do throws(AVError) {
                m = try pool.answer(worker.exchange(WorkerMessage(kind: .containerRead, numbers: mask), timeout: packetTime,
                                                    cancelled: { self.cancelled.load(ordering: .relaxed) }, reads: reads),
                                    worker: worker, name: name)
            } catch {
                // Closed mid-read: the worker is gone, but nothing failed.
                if cancelled.load(ordering: .relaxed) { return .failed(error) }
                return .failed(stop(error))
            }
            defer { if m.fd >= 0 { close(m.fd) } }
            guard m.kind == .containerCues else { return take(m, into: packet) }
            guard let found = SubtitleWork.cues(in: m, subtitleStreams: subtitleStreams) else {
                return .failed(stop(AVError(message: "\(name): the demuxer's answer was malformed")))
            }
            decodedCues.append(found)
        }
        return .again
    }

    /// What the answer `m` to a read says: a packet, now in `packet`, or why there is none.
    private func take(_ m: WorkerMessage, into packet: Packet) -> Demuxer.ReadResult {
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

    /// The subtitle events decoded by the worker since the last call, by stream.
    func takeCues() -> [(stream: Int, cues: [SubtitleCue])] {
        defer { decodedCues = [] }
        return decodedCues
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
        guard let sources else { return nil }
        return { [self] m in
            let answer = sources.answer(m)
            // A playlist's parts are not the media's own bytes: only source 0 counts.
            if answer.kind == .bytes, let n = answer.numbers.first, n > 0, m.numbers.count >= 2, (m.numbers.count < 3 || m.numbers[2] == 0) {
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
