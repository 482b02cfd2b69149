import CFFmpeg
import Glibc
import MediaCore
import MediaCore

/// The desktop's shared thumbnail cache (freedesktop.org's Thumbnail Managing Standard):
/// thumbnails a file manager made are shown at once, and the ones made here serve the file
/// manager and other viewers in turn.
///
/// A thumbnail lives at `DIR/normal/MD5.png` (128 px) or `DIR/large/MD5.png` (256 px),
/// MD5 being the hex digest of the file's `file://` URI. It says which file it shows and
/// that file's modification time in its `Thumb::URI` and `Thumb::MTime` text chunks, and
/// counts only while that time is still the file's. A file that could not be thumbnailed
/// gets an empty record under `DIR/fail/mediaview-VERSION/`, so nobody tries again until the
/// file changes. Files are written whole or not at all (a temporary file renamed into
/// place), readable by their owner alone, in folders only their owner can enter; and only
/// folders and files that are ours alone are read or written, so a shared or tampered
/// cache can neither show another picture nor redirect a write.
public struct ThumbnailStore: Sendable {
    /// The cache's two sizes.
    public enum Size: Int, Sendable {
        /// 128 px on the longer side: `normal/`.
        case normal = 128
        /// 256 px on the longer side: `large/`.
        case large = 256

        /// The folder of this size.
        public var folder: String { self == .normal ? "normal" : "large" }
    }

    /// The cache folder, usually `$XDG_CACHE_HOME/thumbnails`.
    public let directory: String
    /// The program's name and version in the failure folder (`fail/mediaview-0.1.0`).
    public let application: String

    /// A store at `directory` (nothing is made until a thumbnail is saved).
    public init(directory: String, application: String) {
        self.directory = directory
        self.application = application
    }

    /// Why a thumbnail could not be saved, as one line.
    public struct SaveError: Error, Sendable, CustomStringConvertible {
        /// The line for the user.
        public let description: String
        /// The system's error number (EROFS, ENOSPC, EACCES...).
        public let code: Int32
        /// Whether only this one file's slot is at fault (something else sits under its
        /// name), so other thumbnails may still be saved.
        public var onlyThisFile = false

        /// A failure that is this line, with the system's error number.
        package init(description: String, code: Int32) {
            self.description = description
            self.code = code
        }
    }

    /// The file's URI as the standard spells it: `file://` and the absolute path, every
    /// byte but letters, digits and `-._~!$&'()*+,;=:@/` percent-encoded (GLib's spelling,
    /// so file managers find the same names).
    public static func uri(forPath path: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = Array("file://".utf8)
        for b in FileName.bytes(path) {
            if allowed.contains(b) { out.append(b) } else { out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `path` made absolute against the working folder, `.` and `..` taken out, so the same
    /// file has the same URI however it was named on the command line.
    public static func absolutePath(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard getcwd(&buffer, buffer.count) != nil else { return path }
            full = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The lower-case hex MD5 of `text`'s bytes (libavutil's `av_md5`).
    public static func md5(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { av_md5_sum(&digest, $0.baseAddress, Int($0.count)) }
        return digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Where the thumbnail of `uri` at `size` lives.
    public func path(of uri: String, size: Size) -> String {
        directory + "/" + size.folder + "/" + Self.md5(uri) + ".png"
    }

    /// Where the failure record of `uri` lives.
    public func failurePath(of uri: String) -> String {
        directory + "/fail/" + application + "/" + Self.md5(uri) + ".png"
    }

    /// The PNG file of the cached thumbnail of `uri`, if there is one made from this very
    /// file: its `Thumb::URI` is `uri` and its `Thumb::MTime` is `mtime`. A stale, foreign
    /// or damaged file counts as none, and so does one in a folder or file that is not ours
    /// alone (see `distrust`): in a cache others can write, anyone could plant another picture.
    public func cachedPNG(_ uri: String, mtime: Int, size: Size) -> [UInt8]? {
        guard let bytes = readTrusted([size.folder], Self.md5(uri) + ".png", limit: 8 << 20),
              Self.matches(bytes, uri: uri, mtime: mtime) else { return nil }
        return bytes
    }

    /// Whether a failure recorded by this program for `uri` still holds (the file did not
    /// change since).
    public func hasFailure(_ uri: String, mtime: Int) -> Bool {
        guard let bytes = readTrusted(["fail", application], Self.md5(uri) + ".png", limit: 1 << 20) else { return false }
        return Self.matches(bytes, uri: uri, mtime: mtime)
    }

    /// Whether a thumbnail file's text chunks say it was made from `uri` at `mtime`.
    static func matches(_ png: [UInt8], uri: String, mtime: Int) -> Bool {
        guard let text = PNGText.read(png) else { return false }
        let u = text.first { $0.keyword == "Thumb::URI" }?.text
        let m = text.first { $0.keyword == "Thumb::MTime" }?.text
        return u == uri && m == String(mtime)
    }

    /// Saves the PNG file `png` as the thumbnail of `uri` at `size`, with the `Thumb::URI`,
    /// `Thumb::MTime` and `Software` chunks that say what it shows, and a video's `length` in
    /// whole seconds (`Thumb::Movie::Length`) when given.
    public func save(png: [UInt8], uri: String, mtime: Int, size: Size, length: Double? = nil) throws(SaveError) {
        var text = chunks(uri, mtime: mtime)
        if let length, length.isFinite, length >= 0, length < 1e9 { text.append(("Thumb::Movie::Length", String(Int(length)))) }
        guard let marked = PNGText.inserting(text, into: png) else {
            throw SaveError(description: "cannot mark the thumbnail of \(uri) with its file", code: EINVAL)
        }
        try write(marked, named: Self.md5(uri) + ".png", in: [size.folder])
    }

    /// The video length a thumbnail records (`Thumb::Movie::Length`, which video thumbnailers
    /// write too), in seconds; nil when it records none or a value that is not a length.
    public static func length(ofPNG png: [UInt8]) -> Double? {
        guard let text = PNGText.read(png), let value = text.first(where: { $0.keyword == "Thumb::Movie::Length" }),
              let seconds = Double(value.text), seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }

    /// Records that `uri` could not be thumbnailed: an empty 1x1 PNG with its URI and time.
    public func recordFailure(_ uri: String, mtime: Int) throws(SaveError) {
        guard let png = PNGText.inserting(chunks(uri, mtime: mtime), into: Self.emptyPNG) else {
            throw SaveError(description: "cannot encode the failure record of \(uri)", code: EINVAL)
        }
        try write(png, named: Self.md5(uri) + ".png", in: ["fail", application])
    }

    /// The text chunks every file this store writes carries.
    private func chunks(_ uri: String, mtime: Int) -> [(keyword: String, text: String)] {
        [("Thumb::URI", uri), ("Thumb::MTime", String(mtime)), ("Software", application)]
    }

    /// A 1x1 transparent RGBA PNG: what a failure record holds, since only its chunks count.
    static let emptyPNG: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0B, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63, 0x60, 0x00, 0x02, 0x00,
        0x00, 0x05, 0x00, 0x01, 0xE9, 0xFA, 0xDC, 0xD8, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44,
        0xAE, 0x42, 0x60, 0x82,
    ]

    /// The folder the cache is in (`$XDG_CACHE_HOME`), made 0700 if a fresh account has none.
    private var parent: String {
        let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        guard let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex else { return "/" }
        return String(trimmed[..<slash])
    }

    /// Writes `bytes` as `name` in the folder `folders` leads to below the cache: to a
    /// temporary file beside it (mode 0600), renamed into place, so a reader sees the old
    /// file or the whole new one. Missing folders are made 0700; every folder is entered
    /// by its descriptor without following links, so a folder replaced by a link to
    /// somewhere else is refused, not written through.
    private func write(_ bytes: [UInt8], named name: String, in folders: [String]) throws(SaveError) {
        let dir = try openFolders(folders, create: true)
        defer { close(dir) }
        let where_ = ([directory] + folders).joined(separator: "/")
        let temporary = name + ".mediaview-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("cannot write in \(where_)") }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                let error = Self.failure("cannot write \(where_)/\(temporary)")
                close(fd)
                unlinkat(dir, temporary, 0)
                throw error
            }
            done += n
        }
        if close(fd) != 0 {
            let error = Self.failure("cannot write \(where_)/\(temporary)")
            unlinkat(dir, temporary, 0)
            throw error
        }
        if renameat(dir, temporary, dir, name) != 0 {
            var error = Self.failure("cannot save \(where_)/\(name)")
            // Something other than a file sits in this one slot (a folder): this thumbnail
            // is not saved, every other one still is.
            error.onlyThisFile = [EISDIR, ENOTEMPTY, EEXIST, ENOTDIR, EBUSY].contains(error.code)
            unlinkat(dir, temporary, 0)
            throw error
        }
    }

    /// The error for what just failed, with the system's reason.
    private static func failure(_ what: String, code: Int32 = errno) -> SaveError {
        SaveError(description: "\(what): \(String(cString: strerror(code)))", code: code)
    }

    /// A descriptor of the folder `names` lead to below the cache folder. The cache folder
    /// may be reached through a link (a cache moved to another disk); the folders below it
    /// are entered without following links. Each must be `trusted`. With `create`, missing
    /// ones (and the cache's parent) are made 0700.
    private func openFolders(_ names: [String], create: Bool) throws(SaveError) -> Int32 {
        if create {
            for folder in [parent, directory] where mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw Self.failure("cannot make \(folder)")
            }
        }
        var fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure("cannot open \(directory)") }
        var path = directory
        for name in [""] + names {
            if !name.isEmpty {
                path += "/" + name
                if create && mkdirat(fd, name, 0o700) != 0 && errno != EEXIST {
                    let error = Self.failure("cannot make \(path)")
                    close(fd)
                    throw error
                }
                let sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                let code = errno
                close(fd)
                guard sub >= 0 else {
                    throw Self.failure("cannot open \(path)" + (code == ELOOP ? " (a link, not a folder)" : ""), code: code)
                }
                fd = sub
            }
            if let why = Self.distrust(fd) {
                close(fd)
                throw SaveError(description: "\(path) \(why)", code: EPERM)
            }
        }
        return fd
    }

    /// Why a cache folder or file open at `fd` is not to be trusted, or nil when it is ours
    /// (owned by this user) and nobody else may write it: in a folder others can write,
    /// anyone could plant a thumbnail of another picture under a file's name.
    private static func distrust(_ fd: Int32) -> String? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "cannot be read (\(String(cString: strerror(errno))))" }
        if st.st_uid != geteuid() { return "belongs to another user" }
        if st.st_mode & 0o022 != 0 { return "may be written by other users" }
        return nil
    }

    /// The bytes of the file `name` in the folder `folders` lead to, if the folders and the
    /// file are trusted, it is a regular file (never a link, a pipe or a device, which
    /// could block the reader for ever), and it holds at most `limit` bytes.
    private func readTrusted(_ folders: [String], _ name: String, limit: Int) -> [UInt8]? {
        guard let dir = try? openFolders(folders, create: false) else { return nil }
        let fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        close(dir)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, Self.distrust(fd) == nil,
              st.st_size <= limit else { return nil }
        return WholeFile.read(fd, size: Int(st.st_size))
    }
}
