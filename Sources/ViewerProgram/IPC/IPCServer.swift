import Glibc
import Viewer

/// The `--input-ipc-server` socket: accepts clients, reads their lines, writes replies
/// and events, all on the queue's main loop (no thread of its own).
///
/// What the lines mean is `IPCController`'s business; this only moves bytes, and keeps
/// any client from taking the player over: each turn reads at most `readChunk` bytes of
/// one client, so the others are answered between; a client that stops reading is
/// dropped once its backlog passes `IPCConnection.maxOutputBytes`, and the biggest
/// backlog goes first when all of them together pass `maxTotalOutputBytes`. A client
/// that sends garbage keeps its connection.
@MainActor
final class IPCServer {
    /// Where the socket is.
    let path: String
    let listener: Int32
    unowned let queue: MediaQueue
    /// The socket file this server made, so that closing removes it and not one another
    /// instance made at the same path since.
    let identity: UnixSocket.Identity?
    private var connections: [Int32: IPCConnection] = [:]
    /// Bytes queued for all clients together.
    private var totalPending = 0
    /// A retry of writes the sockets could not take is scheduled.
    private var retrying = false
    /// Accepting is paused: the process ran out of descriptors and has no spare.
    var acceptPaused = false
    /// `/dev/null`, held so that a client can be accepted and refused when the process
    /// has no other descriptor left; -1 when it could not be had.
    var spare: Int32 = -1
    /// `close()` was called: nothing is accepted any more.
    private(set) var closed = false
    /// Called for each complete line, with the client it came from.
    var onLine: (IPCConnection.Line, Int32) -> Void = { _, _ in }
    /// Called when a client connected, before its first line.
    var onOpen: (Int32) -> Void = { _ in }
    /// Called when a client went away.
    var onClose: (Int32) -> Void = { _ in }

    /// Clients served at once; the next is told so in one line and closed, so clients
    /// cannot use up the player's descriptors.
    static let maxClients = 64
    /// Unwritten output for all clients together: a hundred clients that never read cost
    /// this much, not a hundred times `IPCConnection.maxOutputBytes`.
    static let maxTotalOutputBytes = 8 << 20
    /// Bytes read from one client per turn of the loop.
    static let readChunk = 16384
    /// Replies waiting for a client past which its requests are no longer read, until
    /// half of them went out.
    static let readPauseBytes = 2 << 20

    /// Listens at `path` (see `UnixSocket.listen`) and joins the loop.
    init(path: String, queue: MediaQueue) throws(UnixSocket.Failure) {
        self.path = path
        self.queue = queue
        listener = try UnixSocket.listen(at: path)
        identity = UnixSocket.Identity(of: path)
        spare = Self.openSpare()
        watchListener()
    }

    /// Clients now connected.
    var clients: [Int32] { Array(connections.keys) }

    /// Whether `client` is still connected.
    func isConnected(_ client: Int32) -> Bool { connections[client] != nil }

    /// Sends `text` to one client.
    func send(_ text: String, to client: Int32) {
        guard connections[client] != nil else { return }
        connections[client]!.queue(text)
        totalPending += text.utf8.count
        flush(client)
        trimBacklogs()
    }

    /// Sends `text` to every client.
    func broadcast(_ text: String) {
        for c in clients { send(text, to: c) }
    }

    /// Closes every connection and removes the socket file, so the next start finds no
    /// stale socket; a socket another instance made at the path since stays.
    func close() {
        closed = true
        // What is still queued (the shutdown event) gets a last chance to go out.
        for c in clients { flush(c) }
        for c in clients { drop(c) }
        queue.unwatch(fileDescriptor: listener)
        Glibc.close(listener)
        if spare >= 0 { Glibc.close(spare) }
        if let identity, UnixSocket.Identity(of: path) == identity { unlink(path) }
    }

    /// A new client, now connected.
    func adopt(_ fd: Int32) {
        connections[fd] = IPCConnection()
        onOpen(fd)
        watchClient(fd)
    }

    private func watchClient(_ fd: Int32) {
        queue.watch(fileDescriptor: fd) { [weak self] in self?.readClient(fd) }
    }

    /// Whether another client may connect.
    var hasRoom: Bool { connections.count < Self.maxClients }

    private func readClient(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: Self.readChunk)
        var n: Int
        repeat { n = recv(fd, &buffer, buffer.count, 0) } while n < 0 && errno == EINTR
        if n < 0 && errno == EAGAIN { return }
        guard n > 0, let lines = connections[fd]?.take(buffer[0..<n]) else {
            drop(fd)
            return
        }
        // A client dropped mid-way (its backlog too big) has its remaining lines ignored,
        // so nothing is kept for a descriptor that a new client may get next.
        for line in lines where connections[fd] != nil { onLine(line, fd) }
        flush(fd)
        if let c = connections[fd], !c.readPaused, c.pendingBytes > Self.readPauseBytes {
            connections[fd]!.readPaused = true
            queue.unwatch(fileDescriptor: fd)
        }
    }

    private func flush(_ fd: Int32) {
        guard var c = connections[fd] else { return }
        var failed = false
        while c.pendingBytes > 0 {
            let n = c.drain { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                totalPending -= n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                failed = !(n < 0 && errno == EAGAIN)
                break
            }
        }
        if c.readPaused && c.pendingBytes <= Self.readPauseBytes / 2 {
            c.readPaused = false
            watchClient(fd)
        }
        connections[fd] = c
        if failed || c.pendingBytes > IPCConnection.maxOutputBytes {
            drop(fd)
        } else if c.pendingBytes > 0 {
            retryLater()
        }
    }

    /// Drops the clients with the biggest backlogs until all of them together fit.
    private func trimBacklogs() {
        while totalPending > Self.maxTotalOutputBytes,
              let worst = connections.max(by: { $0.value.pendingBytes < $1.value.pendingBytes })?.key {
            drop(worst)
        }
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
        guard let c = connections.removeValue(forKey: fd) else { return }
        totalPending -= c.pendingBytes
        queue.unwatch(fileDescriptor: fd)
        Glibc.close(fd)
        onClose(fd)
        resumeAccepting()
    }
}
