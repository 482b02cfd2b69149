import Glibc
import MediaCore

/// An animation played by a sandboxed worker of its own, frame by frame: a GIF, an APNG, an
/// animated WebP, or an AVIF or JPEG XL with frames.
///
/// Animations come from the web more than any other picture, and their decoders parse every
/// byte of them; here they do it in a process with no files, no network and no display. The
/// worker keeps the file open between frames, so it is this animation's alone and stops
/// with it. Frames arrive as a still's pixels do, in a sealed memfd mapped once.
final class WorkerAnimation: PictureSource {
    let info: MediaInfo
    private let worker: DecodeWorker
    /// The pool the worker came from, whose time limit each frame has.
    private let pool: DecodeWorkers
    private let name: String
    private let cancelled: () -> Bool
    /// The frame the opening answered with, handed out first.
    private var first: (frame: Frame, pts: Double, duration: Double)?
    /// The next request starts the animation over (a loop, or a seek).
    private var restart = false
    /// Why no frame will come again: the worker stopped.
    private(set) var stopped: AVError?

    /// The worker's process id.
    var pid: Int32 { worker.pid }

    private init(worker: DecodeWorker, pool: DecodeWorkers, info: MediaInfo,
                 first: (frame: Frame, pts: Double, duration: Double), name: String, cancelled: @escaping () -> Bool) {
        self.worker = worker
        self.pool = pool
        self.info = info
        self.first = first
        self.name = name
        self.cancelled = cancelled
    }

    deinit { worker.stop() }

    /// A frame answered by the worker (whose fd this takes): its pixels, its start and
    /// duration, and the animation's length and rate when known; nil when malformed.
    static func frame(_ m: WorkerMessage) -> (picture: WorkerPicture, pts: Double, duration: Double, length: Double?,
                                              rate: Double?)? {
        let n = m.numbers
        guard m.kind == .picture, n.count >= 14 else {
            if m.fd >= 0 { close(m.fd) }
            return nil
        }
        guard let picture = WorkerPicture(m) else { return nil }
        let pts = Double(n[11]) / 1e6, duration = Double(n[12]) / 1e6
        guard pts.isFinite, duration > 0 else { return nil }
        return (picture, pts, duration, n[13] > 0 ? Double(n[13]) / 1e6 : nil,
                n.count > 14 && n[14] > 0 ? Double(n[14]) / 1e6 : nil)
    }

    /// Opens `bytes` in `worker` (taken over: stopped with the animation, or now on failure).
    static func open(_ bytes: [UInt8], fd: Int32, iccCount: Int, worker: DecodeWorker, pool: DecodeWorkers, name: String,
                     options: PlayerOptions, cancelled: @escaping () -> Bool) throws(AVError) -> WorkerAnimation {
        let t = options.targetSize ?? (0, 0)
        let request = WorkerMessage(kind: .animationOpen, numbers: [Int64(iccCount), Int64(t.width), Int64(t.height),
                                                                    Int64(options.source.maxPixels), Int64(bytes.count)],
                                    text: name, fd: fd)
        let m: WorkerMessage
        do {
            m = try pool.answer(worker.exchange(request, timeout: pool.timeout, cancelled: cancelled), worker: worker, name: name)
        } catch {
            worker.stop()
            throw error
        }
        guard m.kind == .picture else {
            if m.fd >= 0 { close(m.fd) }
            worker.stop()
            throw AVError(message: m.text.isEmpty ? "\(name): the decoder failed" : m.text)
        }
        guard let opened = frame(m), let f = try? opened.picture.next() else {
            worker.stop()
            throw AVError(message: "\(name): the decoder's answer was malformed")
        }
        var info = opened.picture.info
        info.kind = .animated
        info.duration = opened.length
        info.streams.frameRate = opened.rate
        return WorkerAnimation(worker: worker, pool: pool, info: info, first: (f.frame, opened.pts, opened.duration), name: name,
                               cancelled: cancelled)
    }

    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)? {
        if let f = first {
            first = nil
            return f
        }
        if let stopped { throw stopped }
        let request = WorkerMessage(kind: .animationNext, numbers: [restart ? 1 : 0])
        restart = false
        let m: WorkerMessage
        do {
            m = try pool.answer(worker.exchange(request, timeout: pool.timeout, cancelled: cancelled), worker: worker, name: name)
        } catch {
            stopped = error
            throw error
        }
        switch m.kind {
        case .animationEnd:
            return nil
        case .picture:
            guard let got = WorkerAnimation.frame(m), let f = try? got.picture.next() else {
                throw AVError(message: "\(name): the decoder's answer was malformed")
            }
            return (f.frame, got.pts, got.duration)
        default:
            if m.fd >= 0 { close(m.fd) }
            throw AVError(message: m.text.isEmpty ? "\(name): the decoder failed" : m.text)
        }
    }

    func rewind() {
        first = nil
        restart = true
    }

    /// A worker that stopped ends the item with its line; a frame that fails to decode
    /// ends only the animation, as in the player.
    var endsItemOnFailure: Bool { stopped != nil }
}

extension DecodeWorkers {
    /// What asking for an animation came to.
    enum AnimationOutcome {
        case animation(WorkerAnimation)
        /// No worker can be had and the mode allows playing it here.
        case inProcess
    }

    /// The animation in `bytes` (a whole file named `name`) played by a worker of its own,
    /// confined as `options.sandbox` asks; throws the one line when it cannot be played.
    func animation(_ bytes: [UInt8], name: String, options: PlayerOptions,
                   cancelled: @escaping () -> Bool = { false }) throws(AVError) -> AnimationOutcome {
        let head = Array(bytes.prefix(PictureFormat.headSize))
        guard let worker = try confinedWorker(WorkerKind.forStill(head, name: name), name: name, options: options) else {
            return .inProcess
        }
        guard let file = requestFile(bytes, options: options) else {
            give(back: worker)
            throw AVError(message: "\(name): out of memory")
        }
        defer { close(file.fd) }
        // The pool's worker of this kind is this animation's now: another gets ready for the next still.
        startAhead(kind: worker.kind)
        let opened = try WorkerAnimation.open(bytes, fd: file.fd, iccCount: file.iccCount, worker: worker, pool: self, name: name,
                                              options: options, cancelled: cancelled)
        animated.add(1, ordering: .relaxed)
        return .animation(opened)
    }
}
