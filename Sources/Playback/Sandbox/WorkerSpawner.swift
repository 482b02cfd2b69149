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
    private var jobs: [Job] = []
    private var started = false

    /// Starts the worker program at `path` on the spawning thread, and waits for it to be
    /// ready on this one (the gallery's two threads then wait for their workers together);
    /// `nice`: the priority it runs at from its start, warm-up included (nil: the program's).
    func spawn(path: String, kind: WorkerKind, testing: Bool, nice: Int32? = nil) -> Result<DecodeWorker, DecodeFailure> {
        launch(path: path, kind: kind, testing: testing).flatMap { w in
            if let nice { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(w.pid), nice) }
            return w.ready()
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
            let job = jobs.removeFirst()
            condition.unlock()
            let result = DecodeWorker.launch(path: job.path, kind: job.kind, testing: job.testing)
            condition.withLock {
                job.result = result
                condition.broadcast()
            }
        }
    }
}
