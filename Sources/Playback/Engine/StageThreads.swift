import Dispatch
import MediaCore

/// The threads of one player's stages, so closing can wait for every one of them.
///
/// Only a semaphore per thread is kept, never the thread bodies (which hold the stages):
/// storing those once made a cycle that leaked every player with its decoders and threads.
final class StageThreads: Sendable {
    private let ends = Locked<[DispatchSemaphore]>([])

    /// Runs `body` on a new thread named `name`.
    func spawn(name: String, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        ends.withLock { $0.append(done) }
        NamedThread.start(name: name) {
            body()
            done.signal()
        }
    }

    /// Waits until every thread has ended, including those started while waiting (the
    /// demux stage starts the decode stages once it has opened the source).
    func joinAll() {
        var waited = 0
        while true {
            let list = ends.withLock { $0 }
            if list.count == waited { break }
            for done in list[waited...] { done.wait() }
            waited = list.count
        }
    }
}
