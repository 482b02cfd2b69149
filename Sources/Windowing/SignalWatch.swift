import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a flag the main loop reads, and wakes it.
///
/// The handler only stores the signal number and writes one byte to the loop's wake pipe;
/// both are async-signal-safe, so the loop ends cleanly on its next turn (sound stopped,
/// windows closed, temporary files removed) instead of dying in the middle of a frame.
public enum SignalWatch {
    private static let received = Atomic<Int32>(0)
    private static let wakeFD = Atomic<Int32>(-1)

    /// The signal that asked the program to end, if one did.
    public static var pending: Int32? {
        let s = received.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }

    /// Installs the handlers; `loop` is woken when a signal comes.
    public static func install(waking loop: EventLoop) {
        wakeFD.store(loop.wakeDescriptor, ordering: .relaxed)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                SignalWatch.received.store(sig, ordering: .relaxed)
                var b: UInt8 = 1
                let fd = SignalWatch.wakeFD.load(ordering: .relaxed)
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
    }
}
