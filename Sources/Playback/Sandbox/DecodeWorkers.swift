import CSandbox
import Glibc
import MediaCore
import Synchronization

/// The viewer's sandboxed decode workers: one started ahead and reused, replaced at once
/// when one stops.
///
/// A still sent here is parsed in `mediaview-worker`, a process with no files, no network
/// and a syscall allow-list; a crafted file that breaks a parser takes only that process,
/// and the item fails with one line while the viewer goes on.
public final class DecodeWorkers: @unchecked Sendable {
    // @unchecked: `idle` and `said` are behind locks, `ahead` behind
    // `aheadCondition`, the counters atomic; the rest is set once in init.
    /// The pool the player uses.
    public static let shared = DecodeWorkers(testing: getenv("MEDIAVIEW_WORKER_TEST").map { String(cString: $0) == "1" } ?? false)

    /// Seconds a picture may take before its worker is killed.
    let timeout: Double
    /// Whether workers honour test-only probes.
    let testing: Bool
    let idle = Locked<[DecodeWorker]>([])
    /// Workers stopped without waiting, not yet collected.
    let retired = Locked<[pid_t]>([])
    private let said = Locked<Set<String>>([])
    /// Pictures the workers answered with pixels, so a test can tell a still was decoded in one.
    let answered = Atomic<Int>(0)
    /// First looks the workers answered with pixels (not counted in `answered`).
    let glanced = Atomic<Int>(0)
    /// Animations a worker of their own opened and answered the first frame of.
    let animated = Atomic<Int>(0)
    /// Videos whose pictures a worker of their own decodes.
    let videos = Atomic<Int>(0)
    /// Sound streams a worker of their own decodes.
    let sounds = Atomic<Int>(0)
    /// Guards `ahead`, and wakes a still that waits for a worker started ahead.
    let aheadCondition = Condition()
    /// The workers being started ahead (under `aheadCondition`).
    var ahead = AheadStarts()

    /// A pool whose workers get `timeout` seconds a picture; `testing` lets them take probes.
    public init(timeout: Double = 10, testing: Bool = false) {
        self.timeout = timeout
        self.testing = testing
    }

    /// The worker program: `MEDIAVIEW_WORKER`, else beside the running program, else
    /// installed under libexec (`make install` puts it there); nil when there is none.
    public static var programPath: String? {
        if let env = getenv("MEDIAVIEW_WORKER") { return String(cString: env) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        var candidates: [String] = []
        if n > 0 {
            let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = exe.lastIndex(of: "/") {
                let folder = String(exe[..<slash])
                // Beside it (a build folder), or PREFIX/libexec for PREFIX/bin/mediaview.
                candidates += [folder + "/mediaview-worker", folder + "/../libexec/mediaview/mediaview-worker"]
            }
        }
        candidates += ["/usr/local/libexec/mediaview/mediaview-worker", "/usr/libexec/mediaview/mediaview-worker"]
        return candidates.first { access($0, X_OK) == 0 }
    }

    /// How many pictures the workers have decoded (and the viewer shown from their pixels).
    public var picturesDecoded: Int { answered.load(ordering: .relaxed) }

    /// How many animations workers have opened to play.
    public var animationsPlayed: Int { animated.load(ordering: .relaxed) }

    /// How many videos workers have opened to decode.
    public var videosDecoded: Int { videos.load(ordering: .relaxed) }

    /// How many sound streams workers have opened to decode.
    public var soundsDecoded: Int { sounds.load(ordering: .relaxed) }

    /// How many first looks (a photo's small picture, shown while it decodes) the workers made.
    public var firstLooksDecoded: Int { glanced.load(ordering: .relaxed) }

    /// Process ids of the workers waiting for work (tests look for leftovers with them).
    public var idlePIDs: [Int32] { idle.withLock { $0.map(\.pid) } }

    /// Starts a worker ahead, so the first still does not wait for one.
    public func prestart(_ kind: WorkerKind = .photos) {
        guard idle.withLock({ !$0.contains { $0.kind == kind } }), case .success(let w)? = start(kind) else { return }
        idle.withLock { $0.append(w) }
    }

    /// Stops every idle worker (the end of a test, or of the program), and those being
    /// started ahead, which would otherwise join the idle ones just after; a start has its
    /// own time limit, so this waits no longer than one.
    public func stopAll() {
        aheadCondition.withLock { while !ahead.starting.isEmpty { aheadCondition.wait() } }
        let all = idle.withLock { w -> [DecodeWorker] in defer { w = [] }; return w }
        all.forEach { $0.stop() }
    }

    func start(_ kind: WorkerKind) -> Result<DecodeWorker, DecodeFailure>? {
        guard let path = DecodeWorkers.programPath else { return nil }
        return WorkerSpawner.shared.spawn(path: path, kind: kind, testing: testing)
    }

    /// Stops a worker no longer wanted without waiting for its end; it is collected when a
    /// worker is next taken.
    func retire(_ worker: DecodeWorker) {
        guard let pid = worker.stopWithoutWaiting() else { return }
        retired.withLock { $0.append(pid) }
    }

    /// Ends the waiting workers and collects every one stopped before, waiting for each: a
    /// viewer that quits leaves no worker behind, and their time is counted as its own.
    /// Workers still decoding for a player end with it, or with the program.
    public func endAll() {
        stopAll()
        let pids = retired.withLock { r -> [pid_t] in defer { r = [] }; return r }
        for pid in pids {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// Collects the retired workers that have ended.
    func collectRetired() {
        retired.withLock { $0.removeAll { DecodeWorker.collect($0) } }
    }

    /// A worker of `kind` for one request: an idle one, else a new one.
    func take(_ kind: WorkerKind = .photos) -> Result<DecodeWorker, DecodeFailure>? {
        collectRetired()
        if let w = takeIdle(kind) { return .success(w) }
        waitForStartAhead(kind)
        if let w = takeIdle(kind) { return .success(w) }
        return start(kind)
    }

    /// An idle worker of `kind`, already started and warm, if one waits; none is started.
    /// One that died while it waited (the kernel's OOM killer, a user's `kill`) is collected
    /// and passed over, rather than failing the item that would have used it.
    func takeIdle(_ kind: WorkerKind) -> DecodeWorker? {
        while true {
            let taken = idle.withLock { all -> DecodeWorker? in
                guard let i = all.lastIndex(where: { $0.kind == kind }) else { return nil }
                return all.remove(at: i)
            }
            guard let worker = taken else { return nil }
            if worker.isAlive { return worker }
            worker.stop()
        }
    }

    /// A worker that answered goes back to wait for the next request.
    func give(back worker: DecodeWorker) {
        idle.withLock { $0.append(worker) }
    }

    /// After a worker stopped, its successor is started at once, so the next still finds one.
    func replace(_ kind: WorkerKind) {
        if case .success(let w)? = start(kind) { idle.withLock { $0.append(w) } }
    }

    /// Says `line` once per run.
    func sayOnce(_ line: String) {
        let first = said.withLock { $0.insert(line).inserted }
        if first { StandardError.write("mediaview: " + line) }
    }
}
