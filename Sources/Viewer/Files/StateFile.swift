import Glibc

/// The small files the program keeps between runs (where videos were left, where the
/// thumbnail was put), read and written so that nothing else in the state folder can harm
/// the user through them.
///
/// Another program of the same user, a script gone wrong, or a copied folder may leave
/// anything there: a huge file, a FIFO, a symbolic link to a file the user cares about.
/// So a read takes at most a bounded number of bytes, only from a regular file, and never
/// waits on it; a write goes to a new temporary file made with `O_EXCL | O_NOFOLLOW` in a
/// folder owned by the user and closed to others, then renamed over the old file; and
/// instances that change the same file at once take turns under a lock file, each
/// merging its change into what the last one wrote.
public enum StateFile {
    /// Which end of a file too large to read whole is kept.
    public enum End: Sendable {
        /// The first bytes (files that keep the newest first).
        case head
        /// The last bytes (files that keep the newest last).
        case tail
    }

    /// At most `maxBytes` of the regular file at `path`, cut at a line boundary at the
    /// end that is not kept; nil when there is no such file or it is something else.
    public static func read(_ path: String, maxBytes: Int, keep end: End) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(st.st_size)
        let start = end == .tail && size > maxBytes ? size - maxBytes : 0
        var bytes = [UInt8](repeating: 0, count: min(size, maxBytes))
        var got = 0
        while got < bytes.count {
            let n = bytes[got...].withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start + got)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            got += n
        }
        bytes.removeSubrange(got...)
        guard size > maxBytes else { return bytes }
        switch end {
        case .tail:
            // The first line was cut: it starts before what was read.
            let cut = bytes.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            return Array(bytes[cut...])
        case .head:
            let cut = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            return Array(bytes[..<cut])
        }
    }

    /// Replaces the file at `path` with `bytes`, whole or not at all: the old file stays
    /// when anything fails. Returns the reason in one line on failure.
    public static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        let (dir, name) = split(path)
        if let refusal = prepareFolder(dir) { return refusal }
        var fd: Int32 = -1
        var temporary = ""
        for _ in 1...8 where fd < 0 {
            temporary = dir + "/." + name + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd < 0 && errno != EEXIST { break }
        }
        guard fd >= 0 else { return "cannot write \(path): \(String(cString: strerror(errno)))" }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            offset += n
        }
        let why = String(cString: strerror(errno))
        let synced = offset == bytes.count && fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            return "cannot write \(path): \(why)"
        }
        return nil
    }

    /// Runs `body` while holding `path.lock`, so instances that change the file at once
    /// take turns; nil (and `body` not run) when the lock was not had within `timeout`
    /// seconds or cannot be made.
    public static func locked<T>(_ path: String, timeout: Double = 2, _ body: () -> T) -> T? {
        let (dir, _) = split(path)
        guard prepareFolder(dir) == nil else { return nil }
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        let tries = max(1, Int(timeout / 0.005))
        for attempt in 1...tries {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { break }
            guard attempt < tries, errno == EWOULDBLOCK || errno == EINTR else { return nil }
            usleep(5000)
        }
        defer { flock(fd, LOCK_UN) }
        return body()
    }

    /// Makes `dir` (mode 0700) when missing; a refusal line when it is not a folder of the
    /// user's own that others cannot write to.
    static func prepareFolder(_ dir: String) -> String? {
        var built = ""
        for part in dir.split(separator: "/") {
            built += "/" + part
            mkdir(built, 0o700)
        }
        var st = stat()
        guard lstat(dir, &st) == 0 else { return "cannot make \(dir): \(String(cString: strerror(errno)))" }
        guard st.st_mode & S_IFMT == S_IFDIR, st.st_uid == geteuid(), st.st_mode & 0o022 == 0 else {
            return "\(dir) is not a private folder of this user; not writing there"
        }
        return nil
    }

    private static func split(_ path: String) -> (dir: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = slash == path.startIndex ? "/" : String(path[..<slash])
        return (dir, String(path[path.index(after: slash)...]))
    }
}
