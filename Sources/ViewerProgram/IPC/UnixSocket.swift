import Glibc

/// The few Unix-socket calls the IPC server and `--enqueue` need, with errors as one line.
enum UnixSocket {
    /// Why a socket could not be made or reached.
    enum Failure: Error, Equatable {
        /// A live program answers on the path.
        case inUse
        /// Nothing listens there (a stale socket, or no file).
        case nobodyListening
        /// Anything else, as one line.
        case failed(String)
    }

    /// The address of `path`, or nil when it does not fit `sun_path` (108 bytes).
    static func address(_ path: String) -> sockaddr_un? {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: addr.sun_path), !bytes.contains(0) else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return addr
    }

    static func newSocket(nonBlocking: Bool) -> Int32 {
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        return socket(AF_UNIX, type, 0)
    }

    /// A non-blocking connection to the program listening on `path`, made within
    /// `timeout` seconds: a listener that never accepts (its backlog full) is given up on
    /// rather than waited for.
    static func connect(to path: String, timeout: Double = 2) throws(Failure) -> Int32 {
        guard var addr = address(path) else { throw .failed("\(path): the path is too long for a socket") }
        let fd = newSocket(nonBlocking: true)
        guard fd >= 0 else { throw .failed("cannot make a socket: \(errorText())") }
        let deadline = Deadline(seconds: timeout)
        while true {
            let ok = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            let e = errno
            if ok == 0 { return fd }
            // A Unix socket answers EAGAIN while the listener's backlog is full.
            if (e == EAGAIN || e == EINTR) && !deadline.passed {
                usleep(10_000)
                continue
            }
            close(fd)
            if e == ECONNREFUSED || e == ENOENT { throw .nobodyListening }
            if e == EAGAIN { throw .failed("\(path): the program there accepts no connection") }
            throw .failed("\(path): \(String(cString: strerror(e)))")
        }
    }

    /// A non-blocking listening socket at `path`, readable and writable only by its user.
    ///
    /// A socket file nobody answers on is left over from a program that died; it is
    /// replaced. One a live program answers on is left alone (`inUse`), and so is any
    /// file that is not a socket: it may be the user's.
    static func listen(at path: String) throws(Failure) -> Int32 {
        guard var addr = address(path) else { throw .failed("\(path): the path is too long for a socket") }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFSOCK else {
                throw .failed("\(path) exists and is not a socket; not replacing it")
            }
            do throws(Failure) {
                close(try connect(to: path))
                throw Failure.inUse
            } catch .nobodyListening {
                unlink(path)
            }
        }
        let fd = newSocket(nonBlocking: true)
        guard fd >= 0 else { throw .failed("cannot make a socket: \(errorText())") }
        // Created 0600 from the start (umask), not chmod-ed after a window where others
        // could connect: whoever reaches the socket controls the player.
        let old = umask(0o177)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(old)
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            let text = errorText()
            close(fd)
            throw .failed("cannot listen on \(path): \(text)")
        }
        chmod(path, 0o600)
        return fd
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    /// Which file a path names (device and inode), to tell the socket one made from one
    /// another program put at the same path since.
    struct Identity: Equatable {
        let device: UInt64
        let inode: UInt64

        /// The socket at `path` now; nil when there is none.
        init?(of path: String) {
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFSOCK else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
    }
}
