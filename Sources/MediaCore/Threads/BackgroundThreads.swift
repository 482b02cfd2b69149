/// The threads started with `NamedThread` that are still running (not counting the few
/// that serve the whole program), so the program can end in order.
///
/// `exit` runs the C and C++ libraries' destructors (X11's extensions, libsndfile,
/// Vulkan loaders): a decoder or player thread still running then can lock a mutex that
/// was just destroyed, and the viewer crashed at quit that way. The program closes its
/// players, then waits here for their threads before it exits.
public enum BackgroundThreads {
    private static let tally = Tally()

    /// How many counted threads have not ended yet.
    public static var running: Int { tally.condition.withLock { tally.count } }

    /// Waits until every counted thread has ended, or `seconds` have passed; returns how
    /// many are still running (0 when all ended).
    public static func waitForAll(seconds: Double) -> Int {
        let deadline = MonotonicClock.seconds() + seconds
        return tally.condition.withLock {
            while tally.count > 0 {
                let left = deadline - MonotonicClock.seconds()
                guard left > 0 else { break }
                tally.condition.wait(seconds: left)
            }
            return tally.count
        }
    }

    static func started() { tally.condition.withLock { tally.count += 1 } }

    static func ended() {
        tally.condition.withLock {
            tally.count -= 1
            tally.condition.broadcast()
        }
    }

    /// The count and the condition its waiters sleep on.
    private final class Tally: @unchecked Sendable {
        // @unchecked: `count` is read and written only with `condition` held.
        let condition = Condition()
        var count = 0
    }
}
