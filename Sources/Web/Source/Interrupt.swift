import CFFmpeg
import MediaCore
import Synchronization

/// The state read by FFmpeg's interrupt callback: cancelled, or a read past its deadline.
package final class Interrupt: Sendable {
    // Atomics rather than a lock: single words read by FFmpeg's interrupt callback many
    // times a second during every blocking read, from the thread blocked in it, while
    // close() or a new seek writes them from another.
    private let cancelled = Atomic<Bool>(false)
    /// Monotonic nanoseconds after which a blocking call gives up; 0 while idle.
    private let deadline = Atomic<UInt64>(0)
    private let timeoutNanos: Atomic<UInt64>
    /// The blocking call under way is no longer wanted; the next `arm` clears it.
    private let abandoned = Atomic<Bool>(false)

    /// Not cancelled, with each blocking call bounded to `timeout` seconds.
    package init(timeout: Double) {
        timeoutNanos = Atomic(UInt64(SourceOptions.clampedTimeout(timeout) * 1e9))
    }

    /// Bounds each later blocking call to `seconds` (a preview's seek, say, once opened).
    package func setTimeout(_ seconds: Double) {
        timeoutNanos.store(UInt64(SourceOptions.clampedTimeout(seconds) * 1e9), ordering: .relaxed)
    }

    /// Starts the deadline of the blocking call about to be made.
    package func arm() {
        abandoned.store(false, ordering: .relaxed)
        deadline.store(MonotonicClock.nanos() + timeoutNanos.load(ordering: .relaxed), ordering: .relaxed)
    }
    /// The blocking call returned: no deadline until the next `arm`.
    package func disarm() { deadline.store(0, ordering: .relaxed) }
    /// Ends every blocking call from now on.
    package func cancel() { cancelled.store(true, ordering: .relaxed) }
    /// Ends the blocking call under way, if any, but not later ones.
    package func abandon() { abandoned.store(true, ordering: .relaxed) }

    /// FFmpeg's interrupt callback reading this state. It holds no reference: the caller
    /// keeps this object alive as long as what it is given to.
    package var callback: AVIOInterruptCB {
        var cb = AVIOInterruptCB()
        cb.callback = { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<Interrupt>.fromOpaque(opaque).takeUnretainedValue().shouldStop() ? 1 : 0
        }
        cb.opaque = Unmanaged.passUnretained(self).toOpaque()
        return cb
    }

    /// What FFmpeg's interrupt callback answers: whether to give up the blocking call.
    package func shouldStop() -> Bool {
        if cancelled.load(ordering: .relaxed) || abandoned.load(ordering: .relaxed) { return true }
        let d = deadline.load(ordering: .relaxed)
        return d != 0 && MonotonicClock.nanos() > d
    }
}
