import Glibc

/// A thread started by `NamedThread.startJoinable`, which its owner waits for with `join()`.
///
/// Joining, rather than waiting for a signal at the end of the body, means the thread has
/// returned and let go of everything it captured: a player's `close()` that returns is
/// then really the end of its threads, and nothing of it is torn down later under the
/// program's exit.
public struct JoinableThread: Sendable {
    let id: pthread_t

    /// Waits until the thread has ended. Called by the thread itself (its owner's last
    /// reference went on it), it does not wait for itself: the thread is detached instead,
    /// so it is still cleaned up when it returns. Call it exactly once.
    public func join() {
        if pthread_equal(id, pthread_self()) != 0 {
            pthread_detach(id)
            return
        }
        pthread_join(id, nil)
    }
}
