import Glibc

/// A value behind a pthread mutex, shared between the player's threads: the one lock of
/// Playback. Where a thread must also wait for a change (the pipeline queues, the workers'
/// job lists), `Condition` is the same mutex with a condition variable; single words
/// read on hot paths are atomics, each saying why where it is declared.
///
/// Synchronization's `Mutex` would do the same, but on Linux it locks with raw futex calls
/// that ThreadSanitizer cannot see, so `make test-tsan` reported every field it guards as a
/// race. A pthread mutex is what TSan understands, and the cost is the same uncontended.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, under `lock`.
    private let lock = Condition()
    private var value: Value

    /// A lock around `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
