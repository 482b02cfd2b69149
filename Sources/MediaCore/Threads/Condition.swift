import Glibc

/// A mutex with a condition variable: the blocking waits of the pipeline queues.
///
/// Synchronization's `Mutex` has no condition variable, and Foundation's `NSCondition`
/// would pull the whole of Foundation (and ICU) into every process for two calls, so this
/// wraps pthreads directly. Timed waits use the monotonic clock, so a wall-clock change
/// cannot stretch them.
package final class Condition: @unchecked Sendable {
    // @unchecked: the pthread objects are the synchronisation; their addresses are stable
    // (heap-allocated once, freed in deinit), as pthreads requires.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An unlocked mutex and its condition, on the monotonic clock.
    package init() {
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    /// Takes the mutex.
    package func lock() { pthread_mutex_lock(mutex) }
    /// Lets go of the mutex.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a signal; the lock must be held. Wakes may be spurious: loop on the state.
    package func wait() { pthread_cond_wait(cond, mutex) }

    /// Waits at most `seconds`; false when the time ran out.
    @discardableResult
    package func wait(seconds: Double) -> Bool {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let whole = seconds.rounded(.down)
        var nsec = ts.tv_nsec + Int((seconds - whole) * 1e9)
        var sec = ts.tv_sec + Int(whole)
        if nsec >= 1_000_000_000 { nsec -= 1_000_000_000; sec += 1 }
        ts.tv_sec = sec
        ts.tv_nsec = nsec
        return pthread_cond_timedwait(cond, mutex, &ts) != ETIMEDOUT
    }

    /// Wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(cond) }

    /// Runs `body` with the mutex held.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock(); defer { unlock() }
        return try body()
    }
}
