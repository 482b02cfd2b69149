import CFFmpeg
import Glibc
import MediaCore
import Web

/// Pictures of a video at the times a user hovers on its progress track.
///
/// It has a pipeline of its own, so the playing video and its sound are never held back:
/// one thread at the lowest scheduling priority, its own demuxer and a decoder that decodes
/// keyframes only, scaled down to about 160 px wide. The container's keyframe index says
/// which keyframe shows a time, so a time already seen is answered from a small cache at
/// once, and a new one costs one seek and one keyframe. Only the newest request counts: a
/// pointer that moved on cancels the work for where it was, and a time that could not be
/// shown within the bounded work is not tried again. Nothing opens until the pointer nears
/// the track (`prepare`) or the first request, so a video nobody hovers costs nothing. With a `PreviewStore` (web video), pictures and
/// the index are kept on disk, and a video opened again is previewed from there without
/// touching the network. A local file is demuxed and decoded in a sandboxed worker of its
/// own (`SandboxedPreview`), as the sandbox mode allows: a gallery previews files the user
/// never opened.
public final class TrackPreviewer: @unchecked Sendable {
    // @unchecked: every field below `lock` is guarded by it; the decoding state lives on the
    // preview thread only (`TrackPreviewer.Work`).
    let url: String
    let options: SourceOptions
    let width: Int
    let store: PreviewStore?
    let sandbox: SandboxMode
    let wake: @Sendable () -> Void
    let interrupt: Interrupt
    let lock = Condition()
    private var state = State()

    /// What the caller and the preview thread share, under `lock`.
    private struct State {
        var wanted: Double?
        /// The key being decoded now, so asking for it again does not restart it.
        var working: Double?
        var generation = 0
        var started = false
        var closed = false
        var cache = PreviewCache(capacity: 64)
        /// Keys whose picture could not be had within the bounded work.
        var missed: Set<Double> = []
        var keyframes: [Double] = []
        var failed = false
        var fresh = false
        /// The sandboxed worker making the pictures, while one does.
        var worker: Int32?
    }

    /// Previews of `url` about `width` pixels wide; `wake` is called (from the preview
    /// thread) when a new picture is ready. `store` keeps them on disk (web video).
    /// `sandbox` says where a local file is parsed: in a confined worker, or here.
    public init(url: String, options: SourceOptions, width: Int = 160, store: PreviewStore? = nil,
                sandbox: SandboxMode = .automatic, wake: @escaping @Sendable () -> Void) {
        self.url = url
        var o = options
        // A preview jumps around a file it does not play: only ranges are read, and what
        // it reads is no download of the media (no memory copy, no "downloaded" news).
        o.needsByteRanges = true
        o.memoryCache = nil
        o.onCached = nil
        self.options = o
        self.width = max(16, min(640, width))
        self.store = store
        self.sandbox = sandbox
        self.wake = wake
        interrupt = Interrupt(timeout: o.effectiveTimeout)
    }

    deinit { close() }

    /// Opens the preview pipeline ahead of the first request (the pointer is on its way to
    /// the track), so the first hovered time waits only for its own keyframe.
    public func prepare() {
        lock.withLock {
            guard !state.started, !state.closed, !state.failed else { return }
            state.started = true
            NamedThread.start(name: "mv-preview") { [self] in run() }
        }
    }

    /// Asks for the picture at `seconds`; the newest request replaces any older one.
    public func request(at seconds: Double) {
        guard seconds.isFinite else { return }
        lock.withLock {
            guard !state.closed, !state.failed else { return }
            let k = key(max(0, seconds))
            if state.cache.frame(for: k) != nil || state.missed.contains(k) || state.working == k { return }
            if let w = state.wanted, key(w) == k { return }
            state.wanted = max(0, seconds)
            state.generation += 1
            // The pointer moved on: a seek or read for the old place stops now.
            if state.working != nil { interrupt.abandon() }
            if !state.started {
                state.started = true
                NamedThread.start(name: "mv-preview") { [self] in run() }
            }
            lock.broadcast()
        }
    }

    /// The picture for `seconds` if it is ready: the keyframe that shows that time.
    public func picture(at seconds: Double) -> VideoFrame? {
        lock.withLock { state.cache.frame(for: key(seconds)) }
    }

    /// Whether a picture arrived since the last call (the view redraws then).
    public func takeNews() -> Bool {
        lock.withLock {
            defer { state.fresh = false }
            return state.fresh
        }
    }

    /// Whether a preview is asked for or being made: false once the newest request has its
    /// picture or was given up.
    public var isBusy: Bool { lock.withLock { state.wanted != nil || state.working != nil } }

    /// Whether previews cannot be had for this source (no picture, no index and no seeking,
    /// or a web server that does not take byte ranges).
    public var isUnavailable: Bool { lock.withLock { state.failed } }

    /// The process id of the sandboxed worker making this video's pictures; nil while none
    /// does (not opened yet, made in this process, or the worker stopped).
    var workerPID: Int32? { lock.withLock { state.worker } }

    /// Stops the thread; safe more than once and from any thread.
    public func close() {
        lock.withLock {
            state.closed = true
            state.generation += 1
            interrupt.cancel()
            lock.broadcast()
        }
    }

    /// The cache key of a time: the keyframe at or before it when the index is known, else
    /// the whole second. Called with `lock` held.
    func key(_ seconds: Double) -> Double {
        let keyframes = state.keyframes
        guard !keyframes.isEmpty else { return seconds.rounded(.down) }
        var lo = 0, hi = keyframes.count - 1
        if seconds < keyframes[0] { return keyframes[0] }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if keyframes[mid] <= seconds { lo = mid } else { hi = mid - 1 }
        }
        return keyframes[lo]
    }

    // MARK: The preview thread.

    private func run() {
        // Nice 5: the playing video's threads (nice 0) get three times its share of a busy
        // core, and they have queued frames besides, so playback does not wait for a
        // preview; yet a preview the user is waiting for is not starved by other programs'
        // work, as it was under SCHED_IDLE (half a second on a loaded machine) and, less,
        // at nice 10.
        _ = cff_nice_this_thread(5)
        // A video previewed before has its keyframe times on disk: keys are known at once,
        // and its pictures are read from there; anything else is opened now, so that the
        // first hover waits for one keyframe rather than for the opening too.
        var work: PreviewPictures?
        if let stored = store?.keyframes() {
            lock.withLock { state.keyframes = stored }
        } else {
            guard let opened = open() else { return }
            work = opened
        }
        while true {
            let job: (seconds: Double, key: Double, generation: Int)? = lock.withLock {
                while state.wanted == nil && !state.closed { lock.wait() }
                guard !state.closed, let w = state.wanted else { return nil }
                state.wanted = nil
                let k = key(w)
                state.working = k
                return (w, k, state.generation)
            }
            guard let job else { return }
            if lock.withLock({ state.cache.frame(for: job.key) }) != nil { finish(nil, key: job.key); continue }
            if let stored = store?.picture(at: job.key) { finish(stored, key: job.key); continue }
            if work == nil {
                // Opening is not abandoned by a newer request: it serves that one too.
                let known = lock.withLock {
                    state.working = nil
                    return state.keyframes
                }
                guard let opened = open() else { return }
                work = opened
                if known != opened.keyframes {
                    // The index changed what "this time" means: ask again with its key.
                    lock.withLock {
                        if state.wanted == nil && state.generation == job.generation { state.wanted = job.seconds }
                        state.working = nil
                    }
                    continue
                }
            }
            guard let work, make(job, with: work) else { return }
        }
    }

    /// Makes the picture `job` asks for and keeps it; false when the worker making them
    /// stopped, and this video gets no more previews.
    private func make(_ job: (seconds: Double, key: Double, generation: Int), with work: PreviewPictures) -> Bool {
        let stillWanted = { [self] in lock.withLock { state.generation == job.generation && !state.closed } }
        let picture = work.picture(at: job.key, stillWanted: stillWanted)
        if let picture { store?.save(picture, at: job.key) }
        if let ended = work.ended {
            StandardError.write("mediaview: " + ended)
            lock.withLock {
                state.failed = true
                state.working = nil
                state.worker = nil
            }
            return false
        }
        lock.withLock {
            // Given up within its bounds while still wanted: not worth trying again.
            if picture == nil && state.generation == job.generation && !state.closed { state.missed.insert(job.key) }
        }
        finish(picture, key: job.key)
        return true
    }

    /// Opens the source and takes its keyframe index (keeping it on disk when it is new);
    /// nil, with previews marked unavailable, when there is nothing to preview.
    private func open() -> PreviewPictures? {
        let made: PreviewPictures?
        switch SandboxedPreview.open(url: url, options: options, interrupt: interrupt, width: width, mode: sandbox) {
        case .opened(let session): made = session
        case .inProcess: made = Work(url: url, options: options, width: width, interrupt: interrupt)
        case .failed(let why):
            if let why { StandardError.write("mediaview: " + why) }
            made = nil
        }
        guard let opened = made else {
            lock.withLock {
                state.failed = true
                state.working = nil
            }
            return nil
        }
        let changed = lock.withLock {
            defer {
                state.keyframes = opened.keyframes
                state.worker = (opened as? SandboxedPreview)?.pid
            }
            return state.keyframes != opened.keyframes
        }
        if changed { store?.save(keyframes: opened.keyframes) }
        return opened
    }

    /// Ends the job for `key`, keeping its picture if there is one.
    private func finish(_ picture: VideoFrame?, key k: Double) {
        lock.withLock {
            state.working = nil
            if let picture {
                state.cache.insert(picture, for: k)
                state.fresh = true
            }
        }
        if picture != nil { wake() }
    }
}

/// The newest previews, by key, at most `capacity` of them (a few tens of KiB each).
struct PreviewCache {
    let capacity: Int
    private var order: [Double] = []
    private var frames: [Double: VideoFrame] = [:]

    init(capacity: Int) { self.capacity = capacity }

    func frame(for key: Double) -> VideoFrame? { frames[key] }

    mutating func insert(_ frame: VideoFrame, for key: Double) {
        if frames[key] == nil { order.append(key) }
        frames[key] = frame
        while order.count > capacity { frames[order.removeFirst()] = nil }
    }
}
