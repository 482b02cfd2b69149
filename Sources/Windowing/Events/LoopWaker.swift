import Glibc

/// The wake pipe of an `EventLoop`, on its own: what the viewer's threads (decoders,
/// thumbnail makers, previews) hold to make the loop look again.
///
/// They hold this and not the loop, because the loop holds the X connection: a thread that
/// let go of the last reference to the loop would close the display from that thread, and
/// at quit it did so while `exit` was tearing Xlib's extensions down, which crashed. A
/// waker outliving its loop only writes into a pipe nobody reads.
public final class LoopWaker: Sendable {
    /// Readable whenever a wake came since the last `drain()`.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(XError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw XError("cannot create the wake pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Makes the loop look again; safe from any thread. It carries no work: what runs on
    /// the main thread goes through the main dispatch queue.
    public func wake() {
        var b: UInt8 = 1
        _ = Glibc.write(writeEnd, &b, 1)
    }

    /// Empties the pipe; a wake only says "look again", however many came.
    func drain() {
        var buf = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buf, buf.count) > 0 {}
    }
}
