import MediaCore

/// The threads of one player's stages, so closing can wait for every one of them.
///
/// Only the thread handles are kept, never the thread bodies (which hold the stages):
/// storing those once made a cycle that leaked every player with its decoders and threads.
/// Closing joins the threads rather than waiting for a signal at the end of each body: a
/// body's captures (the stages, their decoders, the sound stream and the owner's wake-up)
/// are let go only after it returns, and a quit that went on meanwhile ran `exit` under a
/// thread still tearing those down.
final class StageThreads: Sendable {
    private let started = Locked<[JoinableThread]>([])

    /// Runs `body` on a new thread named `name`.
    func spawn(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = NamedThread.startJoinable(name: name, body)
        started.withLock { $0.append(thread) }
    }

    /// Waits until every thread has ended, including those started while waiting (the
    /// demux stage starts the decode stages once it has opened the source). Called once.
    func joinAll() {
        var joined = 0
        while true {
            let list = started.withLock { $0 }
            if list.count == joined { break }
            for thread in list[joined...] { thread.join() }
            joined = list.count
        }
    }
}
