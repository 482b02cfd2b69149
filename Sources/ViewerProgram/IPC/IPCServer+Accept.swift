import Glibc
import Viewer

/// Taking new clients off the listening socket, within the player's means.
extension IPCServer {
    /// The one line a client gets when it cannot be served: `maxClients` are connected,
    /// or the process has no descriptor left for it.
    static let refusal = "{\"error\":\"too many clients\",\"request_id\":0}\n"

    func watchListener() {
        queue.watch(fileDescriptor: listener) { [weak self] in self?.acceptClients() }
    }

    func acceptClients() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                if hasRoom { adopt(fd) } else { refuse(fd) }
                continue
            }
            switch errno {
            case EINTR, ECONNABORTED:
                continue
            case EMFILE, ENFILE:
                // Out of descriptors, the waiting clients would keep the listener readable
                // and the loop would spin a core until they left. The spare descriptor,
                // given up for a moment, lets each be taken off the backlog and told.
                guard refuseWithSpare() else {
                    pauseAccepting()
                    return
                }
            default:
                return
            }
        }
    }

    /// Tells a client there is no room, without waiting on it: the line fits any fresh
    /// socket's buffer, and a client that cannot take it loses nothing it asked for.
    func refuse(_ fd: Int32) {
        _ = Self.refusal.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        Glibc.close(fd)
    }

    /// A descriptor held in reserve for refusing clients when none is left.
    static func openSpare() -> Int32 { open("/dev/null", O_RDONLY | O_CLOEXEC) }

    /// Frees the spare, accepts and refuses one client with it, and takes it back; false
    /// when there was no spare or no client.
    private func refuseWithSpare() -> Bool {
        guard spare >= 0 else { return false }
        Glibc.close(spare)
        let fd = accept(listener, nil, nil)
        if fd >= 0 { refuse(fd) }
        spare = Self.openSpare()
        return fd >= 0
    }

    /// Stops watching the listener until a client leaves and frees a descriptor (no timer:
    /// arming one may itself need a descriptor).
    private func pauseAccepting() {
        acceptPaused = true
        queue.unwatch(fileDescriptor: listener)
    }

    /// After a client left: the spare is taken back if it was lost, and accepting resumes
    /// if it was paused.
    func resumeAccepting() {
        if spare < 0 { spare = Self.openSpare() }
        guard acceptPaused, !closed else { return }
        acceptPaused = false
        watchListener()
    }
}
