import CFFmpeg
import Glibc

/// Pictures of a video at the times a user hovers on its progress track.
///
/// It has a pipeline of its own, so the playing video and its sound are never held back:
/// one thread at the lowest scheduling priority, its own demuxer and a decoder that decodes
/// keyframes only, scaled down to about 160 px wide. The container's keyframe index says
/// which keyframe shows a time, so a time already seen is answered from a small cache at
/// once, and a new one costs one seek and one keyframe. Only the newest request counts: a
/// pointer that moved on cancels the work for where it was. Nothing opens until the first
/// request, so a video nobody hovers costs nothing.
public final class TrackPreviewer: @unchecked Sendable {
    // @unchecked: every field below `lock` is guarded by it; the decoding state lives on the
    // preview thread only (`TrackPreviewer.Work`).
    let url: String
    let options: SourceOptions
    let width: Int
    let wake: @Sendable () -> Void
    let lock = Condition()
    private var wanted: Double?
    private var generation = 0
    private var started = false
    private var closed = false
    private var cache = PreviewCache(capacity: 64)
    private var keyframes: [Double] = []
    private var failed = false
    private var fresh = false

    /// Previews of `url` about `width` pixels wide; `wake` is called (from the preview
    /// thread) when a new picture is ready.
    public init(url: String, options: SourceOptions, width: Int = 160, wake: @escaping @Sendable () -> Void) {
        self.url = url
        self.options = options
        self.width = max(16, min(640, width))
        self.wake = wake
    }

    deinit { close() }

    /// Asks for the picture at `seconds`; the newest request replaces any older one.
    public func request(at seconds: Double) {
        guard seconds.isFinite else { return }
        lock.withLock {
            guard !closed, !failed else { return }
            if cache.frame(for: key(seconds)) != nil { return }
            wanted = max(0, seconds)
            generation += 1
            if !started {
                started = true
                NamedThread.start(name: "mv-preview") { [self] in run() }
            }
            lock.broadcast()
        }
    }

    /// The picture for `seconds` if it is ready: the keyframe that shows that time.
    public func picture(at seconds: Double) -> VideoFrame? {
        lock.withLock { cache.frame(for: key(seconds)) }
    }

    /// Whether a picture arrived since the last call (the view redraws then).
    public func takeNews() -> Bool {
        lock.withLock {
            defer { fresh = false }
            return fresh
        }
    }

    /// Whether previews cannot be had for this source (no picture, no index and no seeking).
    public var isUnavailable: Bool { lock.withLock { failed } }

    /// Stops the thread; safe more than once and from any thread.
    public func close() {
        lock.withLock {
            closed = true
            generation += 1
            lock.broadcast()
        }
    }

    /// The cache key of a time: the keyframe at or before it when the index is known, else
    /// the whole second.
    func key(_ seconds: Double) -> Double {
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
        // SCHED_IDLE: only spare CPU time, so playback never waits for a preview. (Linux's
        // value 5; the macro needs _GNU_SOURCE, which the Glibc module does not define.)
        var param = sched_param()
        pthread_setschedparam(pthread_self(), 5, &param)
        guard let work = Work(url: url, options: options, width: width) else {
            lock.withLock { failed = true }
            return
        }
        lock.withLock { keyframes = work.keyframes }
        while true {
            let job: (seconds: Double, generation: Int)? = lock.withLock {
                while wanted == nil && !closed { lock.wait() }
                guard !closed, let w = wanted else { return nil }
                wanted = nil
                return (w, generation)
            }
            guard let job else { return }
            let k = lock.withLock { key(job.seconds) }
            if lock.withLock({ cache.frame(for: k) }) != nil { continue }
            let picture = work.picture(at: k, stillWanted: { [self] in lock.withLock { generation == job.generation && !closed } })
            guard let picture else { continue }
            lock.withLock {
                cache.insert(picture, for: k)
                fresh = true
            }
            wake()
        }
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
