import Glibc

/// Monotonic time, never affected by changes of the wall clock.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point.
    @inline(__always)
    public static func nanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Seconds since an arbitrary fixed point.
    @inline(__always)
    public static func seconds() -> Double { Double(nanos()) / 1e9 }
}
