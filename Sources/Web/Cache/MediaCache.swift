import Dispatch
import FoundationEssentials
import Glibc
import MediaCore
import Synchronization

/// The disk cache of web media: `ROOT/{image,video,audio}/<sha256(url)>.<ext>`, with
/// downloads in progress kept under `ROOT/temp/` until they are complete, and the track
/// previews of web videos under `ROOT/previews/` (`PreviewStore`).
///
/// A file appears under its final name only by `rename(2)` after `fsync`, so a reader never
/// sees half a download, even after a crash or a `kill -9`. Every directory is mode 0700:
/// what a user watched is nobody else's business. The total size is kept under `capBytes`
/// by deleting the least recently used files (by mtime, which a cache hit refreshes).
public final class MediaCache: Sendable {
    /// The cache's subdirectories, and `.all` for all of them.
    public enum Directory: String, CaseIterable, Sendable {
        case all, image, video, audio, temp
        /// The pictures hovering a web video's track showed, kept for the next opening.
        case previews
    }

    /// The cache's root directory.
    public let root: String
    /// False for a cache that can only be read (a read-only disk, someone else's
    /// directory): what it holds still plays, nothing new is kept.
    public let isWritable: Bool
    // Atomics rather than `lock`: each is one word, read on every commit and eviction check;
    // the lock serialises the file work, which these do not need to wait for.
    private let cap: Atomic<Int64>
    /// Serialises commits and evictions, so two finishing downloads do not evict each other.
    private let lock = Locked(())
    /// Previews saved by this process, so their directory is checked against its budget now
    /// and then rather than on every save.
    private let previewSaves = Atomic<Int>(0)

    /// The default root: `$XDG_CACHE_HOME/mediaview`, else `~/.cache/mediaview`.
    public static var defaultRoot: String {
        let env = ProcessInfo.processInfo.environment
        if let x = env["XDG_CACHE_HOME"], x.hasPrefix("/") { return x + "/mediaview" }
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwdHome() ?? "/tmp"
        return home + "/.cache/mediaview"
    }

    /// The account's home from the password database, for a process started without HOME.
    private static func passwdHome() -> String? {
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
        let home = String(cString: dir)
        return home.isEmpty ? nil : home
    }

    /// Opens (creating it if needed) a cache at `root`. An existing cache that cannot be
    /// written opens read-only (`isWritable` false); throws a one-line reason when there is
    /// no usable directory at all.
    public init(root: String = MediaCache.defaultRoot, capBytes: Int64 = 1 << 30) throws(AVError) {
        let root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.root = root
        cap = Atomic(max(0, capBytes))
        do throws(AVError) {
            for d in [root] + ([Directory.image, .video, .audio, .temp, .previews].map(\.rawValue) + ["records"]).map({ root + "/" + $0 }) {
                try MediaCache.makePrivateDirectory(d)
            }
            // Prove it is writable now, so a read-only cache is known at start, not per item.
            let probe = root + "/temp/.probe-\(getpid())"
            let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { throw AVError(message: "cache directory \(root) is not writable: \(MediaCache.errnoText())") }
            close(fd)
            unlink(probe)
        } catch {
            // What was cached before still plays offline, if the directory can be read.
            var st = stat()
            guard stat(root, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, access(root, R_OK | X_OK) == 0 else {
                throw error
            }
            isWritable = false
            return
        }
        isWritable = true
        removeAbandonedTemporaries()
    }

    /// The byte cap for `image`, `video` and `audio` together.
    public var capBytes: Int64 {
        get { cap.load(ordering: .relaxed) }
        set { cap.store(max(0, newValue), ordering: .relaxed); evict(sparing: nil) }
    }

    /// The final cache path for `url` in `directory`: a SHA-256 of the full URL, plus the
    /// URL's extension so tools (and FFmpeg's probe) still see what kind of file it is.
    public func path(for url: String, in directory: Directory) -> String {
        root + "/" + directory.rawValue + "/" + SHA256.hex(url) + MediaCache.fileExtension(url)
    }

    /// Whether a copy of `url` is there, unverified and untouched: enough to leave it to the
    /// usual opening (`check`), which verifies it, says why one is refused, and drops it.
    package func holds(_ url: String) -> Bool {
        [Directory.video, .audio, .image].contains { access(path(for: url, in: $0), F_OK) == 0 }
    }

    /// The complete cached copy of `url`, if any, in whichever media directory holds it.
    /// A hit refreshes the file's mtime: that is what "recently used" means to eviction.
    public func lookup(_ url: String) -> String? { check(url).path }

    /// The verified cached copy of `url`, or why a copy that was there was refused (and,
    /// when the cache is writable, deleted so that the next download replaces it).
    public func check(_ url: String) -> (path: String?, refused: String?) {
        for d in [Directory.video, .audio, .image] {
            let p = path(for: url, in: d)
            guard access(p, R_OK) == 0 else { continue }
            if let problem = CacheRecord.problem(with: p) {
                if isWritable { lock.withLock { _ in remove(p) } }
                return (nil, "the cached copy is damaged (\(problem))" + (isWritable ? " and was dropped" : ""))
            }
            utimensat(AT_FDCWD, p, nil, 0)
            return (p, nil)
        }
        return (nil, nil)
    }

    /// Deletes an entry and its record.
    private func remove(_ entry: String) {
        unlink(entry)
        unlink(CacheRecord.sidecar(entry))
    }

    /// A new, empty temporary file in `temp/`, named after this process so a later run can
    /// tell an abandoned one from one being written.
    func makeTemporary() -> (fd: Int32, path: String)? {
        guard isWritable else { return nil }
        var template = Array("\(root)/temp/\(getpid())-XXXXXX.part".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        guard fd >= 0 else { return nil }
        return (fd, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Makes a finished temporary file the cached copy of `url`: fsync, then rename, then
    /// evict to the cap. Returns the final path, or nil (and the temporary is gone) on error.
    func commit(fd: Int32, temporary: String, url: String, directory: Directory) -> String? {
        let final = path(for: url, in: directory)
        // Data first on disk, then the name: a crash between leaves only a temporary.
        guard fsync(fd) == 0, fchmod(fd, 0o600) == 0 else { unlink(temporary); return nil }
        let ok = lock.withLock { _ in
            // The record first: an entry without one is refused as unverifiable.
            CacheRecord.write(fd: fd, for: final) && rename(temporary, final) == 0
        }
        guard ok else { unlink(temporary); unlink(CacheRecord.sidecar(final)); return nil }
        evict(sparing: final)
        return final
    }

    /// Deletes the files of `directory` (`.all`: every one), leaving the directories. The
    /// previews of videos go with the videos.
    public func clear(_ directory: Directory = .all) {
        let dirs: [Directory] = switch directory {
        case .all: [.image, .video, .audio, .temp, .previews]
        case .video: [.video, .previews]
        default: [directory]
        }
        lock.withLock { _ in
            for d in dirs {
                let path = root + "/" + d.rawValue
                for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                    // Another process's download in progress is not ours to pull away.
                    if d == .temp, let pid = MediaCache.ownerPID(name), pid != getpid(), kill(pid, 0) == 0 { continue }
                    remove(path + "/" + name)
                }
            }
        }
    }

    /// Bytes held by the media directories.
    public var totalBytes: Int64 { entries().reduce(0) { $0 + $1.size } }

    /// Deletes least recently used files until the total is within the cap. The file just
    /// committed is spared, so a download never evicts itself.
    public func evict(sparing: String?) {
        lock.withLock { _ in
            var files = entries()
            var total = files.reduce(0) { $0 + $1.size }
            let limit = capBytes
            guard total > limit else { return }
            files.sort { $0.mtime < $1.mtime }
            for f in files where total > limit && f.path != sparing {
                if unlink(f.path) == 0 { total -= f.size }
                unlink(CacheRecord.sidecar(f.path))
            }
        }
    }

    /// Deletes the least recently used previews until `previews/` holds at most `limit`
    /// bytes. Checked on every 32nd call only: listing the directory costs more than a save.
    package func evictPreviews(to limit: Int64) {
        guard previewSaves.wrappingAdd(1, ordering: .relaxed).newValue % 32 == 1 else { return }
        lock.withLock { _ in
            var files = entries(in: [.previews])
            var total = files.reduce(0) { $0 + $1.size }
            guard total > limit else { return }
            files.sort { $0.mtime < $1.mtime }
            for f in files where total > limit * 3 / 4 {
                if unlink(f.path) == 0 { total -= f.size }
            }
        }
    }

    private struct Entry { var path: String; var size: Int64; var mtime: Double }

    private func entries(in directories: [Directory] = [.image, .video, .audio]) -> [Entry] {
        var out: [Entry] = []
        for d in directories {
            let dir = root + "/" + d.rawValue
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
                var st = stat()
                let p = dir + "/" + name
                guard lstat(p, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
                out.append(Entry(path: p, size: Int64(st.st_size),
                                 mtime: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9))
            }
        }
        return out
    }

    /// Temporaries of processes that are gone (killed mid-download) would only take space.
    private func removeAbandonedTemporaries() {
        let dir = root + "/temp"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            guard let pid = MediaCache.ownerPID(name) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(dir + "/" + name) }
        }
    }

    private static func ownerPID(_ name: String) -> pid_t? {
        guard name.hasSuffix(".part"), let dash = name.firstIndex(of: "-") else { return nil }
        return pid_t(name[..<dash])
    }

    /// Creates `path` with mode 0700, or tightens an existing directory to 0700.
    static func makePrivateDirectory(_ path: String) throws(AVError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            if errno == ENOENT {
                // A missing parent (a fresh ~/.cache): make the chain, each link private.
                let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
                if parent != path && !parent.isEmpty {
                    try makePrivateDirectory(parent)
                    if mkdir(path, 0o700) == 0 || errno == EEXIST { return try makePrivateDirectory(path) }
                }
            }
            throw AVError(message: "cannot create cache directory \(path): \(errnoText())")
        }
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw AVError(message: "cache directory \(path) is not a directory")
        }
        if st.st_mode & 0o077 != 0 && chmod(path, 0o700) != 0 {
            throw AVError(message: "cannot make cache directory \(path) private: \(errnoText())")
        }
    }

    /// `.ext` from the URL's path (lowercase, letters and digits, at most 5), or "".
    public static func fileExtension(_ url: String) -> String {
        var path = url
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
        guard let last = path.split(separator: "/").last, let dot = last.lastIndex(of: ".") else { return "" }
        let ext = last[last.index(after: dot)...].lowercased()
        guard !ext.isEmpty, ext.count <= 5, ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return "" }
        return "." + ext
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
