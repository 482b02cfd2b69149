import Glibc
import Synchronization
import Viewer

/// Turns SIGINT, SIGTERM and SIGHUP into a clean end of the queue's loop.
///
/// The handler only stores the signal number and writes one byte to a pipe the loop
/// watches; both are async-signal-safe, so the loop ends cleanly on its next turn (sound
/// stopped, windows closed, temporary files removed) instead of dying in the middle of a
/// frame. The library installs no handlers of its own: this is the program's policy.
@MainActor
final class SignalWatch {
    private static let received = Atomic<Int32>(0)
    private static let pipeWrite = Atomic<Int32>(-1)

    /// The signal that asked the program to end, if one did.
    var received: Int32? {
        let s = SignalWatch.received.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }

    /// Installs the handlers; `queue` quits when a signal comes.
    static func install(on queue: MediaQueue) -> SignalWatch {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            pipeWrite.store(fds[1], ordering: .relaxed)
            let readEnd = fds[0]
            queue.watch(fileDescriptor: readEnd) {
                var buf = [UInt8](repeating: 0, count: 16)
                while read(readEnd, &buf, buf.count) > 0 {}
                queue.quit()
            }
        }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                SignalWatch.received.store(sig, ordering: .relaxed)
                var b: UInt8 = 1
                let fd = SignalWatch.pipeWrite.load(ordering: .relaxed)
                if fd >= 0 { _ = write(fd, &b, 1) }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
        // A parent may have started us with these blocked (Foundation's Process does, from
        // some threads); a viewer that ignores SIGTERM would be a bad citizen.
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, sig) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        // A closed pipe (stdout to `head`, say) must not kill the player mid-frame.
        signal(SIGPIPE, SIG_IGN)
        return SignalWatch()
    }
}
