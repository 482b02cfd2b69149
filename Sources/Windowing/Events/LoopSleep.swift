import CX11
import Glibc

/// One sleep of the loop: the descriptors it waits on and, once polled, which of them woke it.
///
/// It is made and handled on the loop's thread, and polled there (`run()`) or on the
/// dispatched loop's poller thread (`run() async`): both drivers sleep on the same set and
/// act on the same readiness, so what ends or wakes one ends or wakes the other.
struct LoopSleep: Sendable {
    private var fds: [pollfd]
    /// The app's descriptors, in the order they follow the loop's own in `fds`.
    private let watched: [Int32]
    private let firstWatched: Int
    /// Nanoseconds to sleep at most; nil: no limit.
    private let nanoseconds: Int?

    /// A sleep on the X connection `x`, the wake pipe's `wake` end, the main queue's port
    /// when this thread serves it, and the app's `watched` descriptors, for at most
    /// `timeout` seconds (nil: no limit).
    init(x: Int32, wake: Int32, mainQueue: Int32?, watched: [Int32], timeout: Double?) {
        fds = [pollfd(fd: x, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        if let q = mainQueue { fds.append(pollfd(fd: q, events: Int16(POLLIN), revents: 0)) }
        firstWatched = fds.count
        for fd in watched { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        self.watched = watched
        // To the nanosecond: poll's whole milliseconds, rounded up, kept a picture due in
        // 0.2 ms waiting 1 ms, and a slide show's every step a little longer than asked.
        nanoseconds = timeout.map { Int(max(0, min(3_600, $0.isNaN ? 0 : $0)) * 1e9) }
    }

    /// Sleeps until one of the descriptors is ready or the time is up; the sleep with what
    /// woke it.
    func polled() -> LoopSleep {
        var done = self
        _ = cx11_poll_nanoseconds(&done.fds, nfds_t(done.fds.count), Int64(nanoseconds ?? -1))
        return done
    }

    /// Whether the wake pipe was written.
    var woke: Bool { fds[1].revents != 0 }

    /// The app's descriptors that can be read, or that were closed under the loop (which a
    /// handler must hear too: its pipe's writer may have ended it that way).
    var readyWatched: [Int32] {
        watched.enumerated().compactMap { i, fd in fds[firstWatched + i].revents != 0 ? fd : nil }
    }
}
