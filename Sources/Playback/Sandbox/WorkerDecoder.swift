import CFFmpeg
import CSandbox
import FoundationEssentials
import Glibc
import MediaCore

/// A video's pictures, or its sound, decoded by a sandboxed worker of their own: the
/// decoder a decode stage sends packets to when the sandbox is on.
///
/// H.264, HEVC, VP9 and AV1 decoders are the largest parsers a video reaches, and AAC,
/// Opus, MP3 and the rest parse every byte of a song; here they run in a process with no
/// files, no network and no display. Each packet goes over in a memfd this side writes; the
/// frames come back in slot memfds the worker decoded them into, mapped here once, so none
/// is copied on the way. A frame's slot is the worker's again once the last reference here
/// goes; the numbers of those let go go back with the next packet. Used by the decode
/// thread alone.
final class WorkerDecoder: PacketDecoding {
    private let worker: DecodeWorker
    private let pool: DecodeWorkers
    private let name: String
    private let timeBase: AVRational
    let frameRate: Double
    /// A sound stream's rate and channels played (at most two), as the stream declares them.
    private let sound: (rate: Int, channels: Int)?
    /// Pictures answered to the last packet, not yet taken, and what the decoder said after them.
    private var ready: [Frame] = []
    private var last: Decoder.ReceiveResult = .needsInput
    private var slots: [Int64: FrameSlot] = [:]
    /// Numbers of pictures let go, filled on any thread, sent by the decode thread.
    private let released = Locked<[Int64]>([])
    /// The memfd packets are written into, and its size; replaced by a larger one as needed.
    private var area: (fd: Int32, base: UnsafeMutableRawPointer, size: Int)?
    private var lowPower = false
    /// Why no picture will come again: the worker stopped, or answered nonsense.
    private(set) var stopped: AVError?
    /// The media worker for the next stream, started once this one is under way.
    private var spare = SpareWorker(kind: .media)
    /// How long one packet may take before the worker is taken to hang and is replaced.
    static let packetTime = 3.0
    /// Frame threads for a picture stream that may use every core: one more than
    /// libavcodec's own automatic count (a core each, and one). Each packet's answer
    /// crosses to the viewer and the next packet comes back before the worker can hand it
    /// to a free thread; with a thread more, one is still decoding while that round trip
    /// travels, and the cores do not wait for it. On two cores, 1080p shown as fast as it
    /// decodes took 1.18x of FFmpeg's own decode with libavcodec's count, 1.13x with this.
    static let automaticThreads = min(16, ProcessInfo.processInfo.activeProcessorCount + 2)

    private init(worker: DecodeWorker, pool: DecodeWorkers, name: String, timeBase: AVRational, frameRate: Double,
                 sound: (rate: Int, channels: Int)?) {
        self.worker = worker
        self.pool = pool
        self.name = name
        self.timeBase = timeBase
        self.frameRate = frameRate
        self.sound = sound
    }

    deinit {
        pool.retire(worker)
        if let area {
            munmap(area.base, area.size)
            close(area.fd)
        }
    }

    /// Opens a video stream's decoder in `worker` (taken over: stopped with the video, or
    /// now on failure).
    static func video(_ stream: UnsafeMutablePointer<AVStream>, threads: Int, maxPixels: Int, worker: DecodeWorker,
                      pool: DecodeWorkers, name: String) throws(AVError) -> WorkerDecoder {
        var rate = av_q2d(stream.pointee.avg_frame_rate)
        if !rate.isFinite || rate <= 0 { rate = av_q2d(stream.pointee.r_frame_rate) }
        let request = StreamOpening.request(stream, threads: threads > 0 ? threads : automaticThreads, maxPixels: maxPixels,
                                            name: name)
        try open(request, worker: worker, pool: pool, name: name)
        return WorkerDecoder(worker: worker, pool: pool, name: name, timeBase: stream.pointee.time_base,
                             frameRate: rate.isFinite && rate > 0 ? rate : 0, sound: nil)
    }

    /// Opens a sound stream's decoder in `worker`, as `video` does.
    static func sound(_ par: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational, worker: DecodeWorker,
                      pool: DecodeWorkers, name: String) throws(AVError) -> WorkerDecoder {
        try open(StreamOpening.soundRequest(par, timeBase: timeBase, name: name), worker: worker, pool: pool, name: name)
        let layout = par.pointee.ch_layout
        return WorkerDecoder(worker: worker, pool: pool, name: name, timeBase: timeBase, frameRate: 0,
                             sound: (Int(par.pointee.sample_rate), min(2, max(1, Int(layout.nb_channels)))))
    }

    private static func open(_ request: WorkerMessage?, worker: DecodeWorker, pool: DecodeWorkers, name: String) throws(AVError) {
        guard let request else {
            worker.stop()
            throw AVError(message: "\(name): out of memory")
        }
        defer { close(request.fd) }
        let m: WorkerMessage
        do {
            m = try pool.answer(worker.exchange(request, timeout: pool.timeout), worker: worker, name: name)
        } catch {
            worker.stop()
            throw error
        }
        if m.fd >= 0 { close(m.fd) }
        guard m.kind == .streamOpened else {
            worker.stop()
            throw AVError(message: m.text.isEmpty ? "\(name): the decoder failed" : m.text)
        }
    }

    func send(_ packet: Packet?) -> Int32 {
        if stopped != nil { return cff_averror(EIO) }
        spare.startIfDue(in: pool)
        ready = []
        last = .needsInput
        guard sendReleased() else { return cff_averror(EIO) }
        let numbers: [Int64]
        var fd: Int32 = -1
        if let packet {
            let p = packet.raw.pointee
            let size = Int(max(0, p.size))
            guard let area = area(for: size) else { return cff_averror(ENOMEM) }
            if area.fresh { fd = area.fd }
            if size > 0 { memcpy(area.base, p.data, size) }
            numbers = [Int64(size), p.pts, p.dts, p.duration, Int64(p.flags), lowPower ? 1 : 0]
        } else {
            numbers = [-1, 0, 0, 0, 0, lowPower ? 1 : 0]
        }
        var outcome = worker.exchange(WorkerMessage(kind: .streamPacket, numbers: numbers, fd: fd), timeout: WorkerDecoder.packetTime)
        while true {
            let m: WorkerMessage
            do throws(AVError) {
                m = try pool.answer(outcome, worker: worker, name: name)
            } catch {
                return stop(error)
            }
            switch m.kind {
            case .videoFrame where sound == nil, .soundFrame where sound != nil:
                guard take(m) else { return stop(AVError(message: "\(name): the decoder's answer was malformed")) }
                outcome = worker.next(timeout: WorkerDecoder.packetTime)
            case .streamDone:
                let n = m.numbers
                switch n[1] {
                case 1: last = .endOfStream
                case 2: last = .failed(AVError(code: Int32(truncatingIfNeeded: n[2]), "decoding failed"))
                default: last = .needsInput
                }
                return Int32(truncatingIfNeeded: n[0])
            default:
                if m.fd >= 0 { close(m.fd) }
                return stop(AVError(message: m.text.isEmpty ? "\(name): the decoder failed" : m.text))
            }
        }
    }

    func receive(into frame: Frame) -> Decoder.ReceiveResult {
        if !ready.isEmpty {
            let f = ready.removeFirst()
            av_frame_unref(frame.raw)
            av_frame_move_ref(frame.raw, f.raw)
            return .frame
        }
        if let stopped { return .failed(stopped) }
        let r = last
        last = .needsInput
        return r
    }

    func flush() {
        ready = []
        last = .needsInput
        if stopped == nil, let ended = worker.post(WorkerMessage(kind: .streamFlush)) { _ = stop(ended) }
    }

    func seconds(_ ts: Int64) -> Double? {
        ts == cff_nopts ? nil : Double(ts) * av_q2d(timeBase)
    }

    func setLowPower(_ low: Bool) { lowPower = low }

    /// A picture message: its slot mapped if new, the picture made over it.
    private func take(_ m: WorkerMessage) -> Bool {
        defer { if m.fd >= 0 { close(m.fd) } }
        let id = m.numbers[1]
        if m.fd >= 0 {
            guard slots[id] == nil, slots.count < Int(StreamWork.maxSlots) * 2, let slot = FrameSlot(fd: m.fd) else { return false }
            slots[id] = slot
        }
        guard let slot = slots[id] else { return false }
        let release = FrameRelease(number: m.numbers[0], slot: slot, released: released)
        let made = m.kind == .soundFrame ? SoundFrameMessage.frame(m, slot: slot, release: release)
            : VideoFrameMessage.frame(m, slot: slot, release: release)
        guard let frame = made else { return false }
        ready.append(frame)
        return true
    }

    /// Tells the worker which pictures were let go since the last packet; false when it is gone.
    private func sendReleased() -> Bool {
        let numbers = released.withLock { r -> [Int64] in defer { r = [] }; return r }
        var i = 0
        while i < numbers.count {
            let part = Array(numbers[i..<min(i + 15, numbers.count)])
            if let ended = worker.post(WorkerMessage(kind: .streamRelease, numbers: part)) {
                _ = stop(ended)
                return false
            }
            i += 15
        }
        return true
    }

    /// The packet memfd, large enough for `size` bytes; `fresh` when the worker has not seen it.
    private func area(for size: Int) -> (fd: Int32, base: UnsafeMutableRawPointer, fresh: Bool)? {
        if let area, area.size >= size { return (area.fd, area.base, false) }
        if let area {
            munmap(area.base, area.size)
            close(area.fd)
            self.area = nil
        }
        let capacity = max(1 << 20, size + size / 2)
        let fd = sbx_memfd("mediaview-packets")
        guard fd >= 0 else { return nil }
        guard ftruncate(fd, off_t(capacity)) == 0, let p = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              p != MAP_FAILED else {
            close(fd)
            return nil
        }
        area = (fd, p, capacity)
        return (fd, p, true)
    }

    /// The worker ended (`outcome`): every later call fails with the line saying how.
    private func stop(_ outcome: DecodeWorker.Outcome) -> Int32 {
        do throws(AVError) {
            _ = try pool.answer(outcome, worker: worker, name: name)
            return stop(AVError(message: "\(name): the decoder stopped"))
        } catch {
            return stop(error)
        }
    }

    /// Ends the worker; every later call fails with `error`, the line the item fails with.
    private func stop(_ error: AVError) -> Int32 {
        worker.stop()
        stopped = error
        ready = []
        return cff_averror(EIO)
    }
}

extension WorkerDecoder: SoundDecoding {
    var sampleRate: Int { sound?.rate ?? 0 }
    var channels: Int { sound?.channels ?? 0 }
}
