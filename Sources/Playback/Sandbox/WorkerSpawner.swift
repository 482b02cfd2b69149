import CSandbox
import Glibc
import MediaCore

/// Starts decode workers from one thread that lives as long as the program.
///
/// A worker asks to die with its parent (PR_SET_PDEATHSIG), and Linux takes "parent" to be
/// the thread that started it: started from a player's demux thread, a worker would be
/// killed when that player closed, failing the next still with "killed (SIGKILL)".
final class WorkerSpawner: @unchecked Sendable {
    // @unchecked: `jobs` and `started` are read and written only under `condition`.
    static let shared = WorkerSpawner()

    private final class Job {
        let path: String
        let kind: WorkerKind
        let testing: Bool
        var result: Result<DecodeWorker, DecodeFailure>?
        init(path: String, kind: WorkerKind, testing: Bool) { self.path = path; self.kind = kind; self.testing = testing }
    }

    private let condition = Condition()
    /// The zygote for each worker program; touched only on the spawning thread.
    private var zygotes: [String: WorkerZygote] = [:]
    /// Zygotes that failed to start, one after another: after three, workers are started as
    /// programs for the rest of the run rather than waiting on a start that keeps failing.
    private var zygoteFailures = 0
    private static let mostZygoteFailures = 3
    private var jobs: [Job] = []
    private var started = false

    /// Starts the worker program at `path` on the spawning thread, and waits for it to be
    /// ready on this one (the gallery's two threads then wait for their workers together);
    /// `nice`: the priority it decodes at once ready (nil: the program's). Its start and
    /// warm-up run at the program's own: lowered from the start, a worker on a busy machine
    /// (two programs keeping both cores busy) missed its 3 s to be ready, and a gallery
    /// then made its thumbnails in the viewer's process instead.
    func spawn(path: String, kind: WorkerKind, testing: Bool, nice: Int32? = nil) -> Result<DecodeWorker, DecodeFailure> {
        launch(path: path, kind: kind, testing: testing).flatMap { w in
            let ready = w.ready()
            if let nice, case .success(let worker) = ready {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(worker.pid), nice)
            }
            return ready
        }
    }

    private func launch(path: String, kind: WorkerKind, testing: Bool) -> Result<DecodeWorker, DecodeFailure> {
        let job = Job(path: path, kind: kind, testing: testing)
        condition.withLock {
            jobs.append(job)
            if !started {
                started = true
                NamedThread.start(name: "worker-spawner", lifelong: true) { [self] in serve() }
            }
            condition.broadcast()
            while job.result == nil { condition.wait() }
        }
        return job.result!
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let first = jobs[nextJob()]
            condition.unlock()
            // The zygote's start takes most of a launch's first 50 ms, and a film's three
            // workers are asked for meanwhile, from three threads in any order; the one to
            // fork first is chosen once it is ready. One that died (a user's kill, the OOM
            // killer) is collected and replaced the same way; its workers were the viewer's
            // children and play on.
            if let zygote = zygotes[first.path], !zygote.isAlive { zygotes[first.path] = nil }
            let tried = zygotes[first.path] == nil
            if tried { startZygote(for: first) }
            let job = condition.withLock { jobs.remove(at: nextJob()) }
            let result = forked(job, mayStart: !tried || job.path != first.path)
                ?? DecodeWorker.launch(path: job.path, kind: job.kind, testing: job.testing)
            condition.withLock {
                job.result = result
                condition.broadcast()
            }
        }
    }

    /// Where the next job waits: a film's container first, since its picture and sound
    /// wait for what the container holds, then in the order asked. Called under `condition`.
    private func nextJob() -> Int {
        jobs.firstIndex { $0.kind == .containers } ?? 0
    }

    /// The job's worker forked from its zygote (started on first use, and again should it
    /// have died); nil when there is none, and the worker is started as a program.
    /// `mayStart`: false when a start for this job's program was just tried, and failed.
    private func forked(_ job: Job, mayStart: Bool) -> Result<DecodeWorker, DecodeFailure>? {
        if let zygote = zygotes[job.path] {
            if let result = zygote.fork(job.kind, testing: job.testing) { return result }
            // One that died since it was looked at.
            zygotes[job.path] = nil
        } else if !mayStart {
            return nil
        }
        return startZygote(for: job)?.fork(job.kind, testing: job.testing)
    }

    /// A zygote for `job`'s program, started warm for its kind; nil when workers are started
    /// as programs.
    @discardableResult
    private func startZygote(for job: Job) -> WorkerZygote? {
        // Under ThreadSanitizer a forked process restarts the sanitizer's own thread, and a
        // process of two threads cannot enter a new user namespace: the sanitizer test
        // builds start each worker as a program, as every build did before the zygote.
        guard sbx_sanitized() == 0 else { return nil }
        guard zygoteFailures < WorkerSpawner.mostZygoteFailures else { return nil }
        guard let zygote = WorkerZygote.start(path: job.path, first: job.kind) else {
            zygoteFailures += 1
            return nil
        }
        zygoteFailures = 0
        zygotes[job.path] = zygote
        return zygote
    }
}
