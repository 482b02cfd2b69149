import Glibc
import Viewer

/// Taking new clients off the listening socket, within the player's means.
extension IPCServer {
    /// How long accepting rests when the process is out of descriptors. The waiting
    /// clients stay in the socket's backlog meanwhile; without the rest the loop would
    /// wake for them again at once and spin a core until they leave.
    static let descriptorPause = 0.5

    /// The one line a client gets when `maxClients` are already connected.
    static let refusal = "{\"error\":\"too many clients\",\"request_id\":0}\n"

    func watchListener() {
        queue.watch(fileDescriptor: listener) { [weak self] in self?.acceptClients() }
    }

    func acceptClients() {
        while !acceptPaused {
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
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                pauseAccepting()
                return
            default:
                return
            }
        }
    }

    /// Tells a client there is no room, without waiting on it: the line fits any fresh
    /// socket's buffer, and a client that cannot take it loses nothing it asked for.
    private func refuse(_ fd: Int32) {
        _ = Self.refusal.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        Glibc.close(fd)
    }

    private func pauseAccepting() {
        acceptPaused = true
        queue.unwatch(fileDescriptor: listener)
        onMainActor(after: Self.descriptorPause) { [weak self] in
            guard let self, self.acceptPaused, !self.closed else { return }
            self.acceptPaused = false
            self.watchListener()
            self.acceptClients()
        }
    }
}
