import Glibc
import Viewer

/// The `--input-ipc-server` socket: accepts clients, reads their lines, writes replies
/// and events, all on the queue's main loop (no thread of its own).
///
/// What the lines mean is `IPCController`'s business; this only moves bytes. A client
/// that sends garbage keeps its connection; one that stops reading while events pile up
/// past `IPCConnection.maxOutputBytes` is dropped.
@MainActor
final class IPCServer {
    /// Where the socket is.
    let path: String
    private let listener: Int32
    private unowned let queue: MediaQueue
    private var connections: [Int32: IPCConnection] = [:]
    /// A retry of writes the sockets could not take is scheduled.
    private var retrying = false
    /// Called for each complete line, with the client it came from.
    var onLine: (IPCConnection.Line, Int32) -> Void = { _, _ in }
    /// Called when a client connected, before its first line.
    var onOpen: (Int32) -> Void = { _ in }
    /// Called when a client went away.
    var onClose: (Int32) -> Void = { _ in }

    /// Listens at `path` (see `UnixSocket.listen`) and joins the loop.
    init(path: String, queue: MediaQueue) throws(UnixSocket.Failure) {
        self.path = path
        self.queue = queue
        listener = try UnixSocket.listen(at: path)
        queue.watch(fileDescriptor: listener) { [weak self] in self?.acceptClients() }
    }

    /// Clients now connected.
    var clients: [Int32] { Array(connections.keys) }

    /// Sends `text` to one client.
    func send(_ text: String, to client: Int32) {
        guard connections[client] != nil else { return }
        connections[client]!.output.append(contentsOf: text.utf8)
        flush(client)
    }

    /// Sends `text` to every client.
    func broadcast(_ text: String) {
        for c in clients { send(text, to: c) }
    }

    /// Closes every connection and removes the socket file, so the next start finds no
    /// stale socket.
    func close() {
        // What is still queued (the shutdown event) gets a last chance to go out.
        for c in clients { flush(c) }
        for c in clients { drop(c) }
        queue.unwatch(fileDescriptor: listener)
        Glibc.close(listener)
        unlink(path)
    }

    private func acceptClients() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            connections[fd] = IPCConnection()
            onOpen(fd)
            queue.watch(fileDescriptor: fd) { [weak self] in self?.readClient(fd) }
        }
    }

    private func readClient(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while connections[fd] != nil {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 {
                let lines = connections[fd]!.take(buffer[0..<n])
                for line in lines { onLine(line, fd) }
                flush(fd)
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                return
            } else {
                drop(fd)
                return
            }
        }
    }

    private func flush(_ fd: Int32) {
        guard var c = connections[fd] else { return }
        while !c.output.isEmpty {
            let n = c.output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                c.output.removeFirst(n)
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && errno == EAGAIN {
                break
            } else {
                drop(fd)
                return
            }
        }
        if c.output.count > IPCConnection.maxOutputBytes {
            drop(fd)
            return
        }
        connections[fd] = c
        if !c.output.isEmpty { retryLater() }
    }

    /// The loop watches for reading only: output a full socket refused is tried again
    /// shortly, so a reply reaches a slow client without waiting for the next event.
    private func retryLater() {
        guard !retrying else { return }
        retrying = true
        onMainActor(after: 0.02) { [weak self] in
            guard let self else { return }
            self.retrying = false
            for c in self.clients { self.flush(c) }
        }
    }

    private func drop(_ fd: Int32) {
        guard connections.removeValue(forKey: fd) != nil else { return }
        queue.unwatch(fileDescriptor: fd)
        Glibc.close(fd)
        onClose(fd)
    }
}
