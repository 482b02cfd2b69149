import Glibc

/// A moment a fixed time from now, on the monotonic clock: a peer's whole allowance,
/// which each byte it sends does not renew.
struct Deadline {
    private let end: Double

    /// `seconds` from now.
    init(seconds: Double) { end = Self.now() + seconds }

    /// Seconds left, at least 0.
    var remaining: Double { max(0, end - Self.now()) }
    /// Whether the time is up.
    var passed: Bool { remaining <= 0 }

    /// Milliseconds left, for poll.
    var pollMilliseconds: Int32 { Int32(min(remaining * 1000, 3_600_000).rounded(.up)) }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
