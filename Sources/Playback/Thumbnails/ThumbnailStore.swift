import CFFmpeg
import Glibc

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
/// place), readable by their owner alone, in folders only their owner can enter.
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
    }

    /// The file's URI as the standard spells it: `file://` and the absolute path, every
    /// byte but letters, digits and `-._~!$&'()*+,;=:@/` percent-encoded (GLib's spelling,
    /// so file managers find the same names).
    public static func uri(forPath path: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = Array("file://".utf8)
        for b in path.utf8 {
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

    /// The cached thumbnail of `uri`, if there is one made from this very file: its
    /// `Thumb::URI` is `uri` and its `Thumb::MTime` is `mtime`. A stale, foreign or damaged
    /// file counts as none.
    public func cached(_ uri: String, mtime: Int, size: Size) -> StillDecoder.RGBA? {
        let file = path(of: uri, size: size)
        guard let bytes = try? ThumbnailMaker.readFile(file, limit: 8 << 20), Self.matches(bytes, uri: uri, mtime: mtime),
              let picture = Self.decodePNG(bytes, size: size.rawValue) else { return nil }
        return picture
    }

    /// A PNG file's bytes decoded straight by FFmpeg's PNG decoder, fitted to `size` (a
    /// thumbnail from another program may be larger than the standard says): no demuxer and
    /// no probing, since a warm gallery's first screen is a few tens of these.
    static func decodePNG(_ bytes: [UInt8], size: Int) -> StillDecoder.RGBA? {
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_PNG), let ctx = avcodec_alloc_context3(codec) else { return nil }
        defer { var c: UnsafeMutablePointer<AVCodecContext>? = ctx; avcodec_free_context(&c) }
        ctx.pointee.thread_count = 1
        let packet = Packet(), frame = Frame()
        guard avcodec_open2(ctx, codec, nil) >= 0, bytes.count < Int32.max,
              av_new_packet(packet.raw, Int32(bytes.count)) >= 0, let data = packet.raw.pointee.data else { return nil }
        bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: $0.count) }
        guard avcodec_send_packet(ctx, packet.raw) >= 0, avcodec_receive_frame(ctx, frame.raw) >= 0 else { return nil }
        let f = frame.raw.pointee
        guard f.width > 0, f.height > 0, Int(f.width) * Int(f.height) <= 4096 * 4096 else { return nil }
        return try? ThumbnailMaker.fit(frame, size: size)
    }

    /// Whether a failure recorded by this program for `uri` still holds (the file did not
    /// change since).
    public func hasFailure(_ uri: String, mtime: Int) -> Bool {
        guard let bytes = try? ThumbnailMaker.readFile(failurePath(of: uri), limit: 1 << 20) else { return false }
        return Self.matches(bytes, uri: uri, mtime: mtime)
    }

    /// Whether a thumbnail file's text chunks say it was made from `uri` at `mtime`.
    static func matches(_ png: [UInt8], uri: String, mtime: Int) -> Bool {
        guard let text = PNGText.read(png) else { return false }
        let u = text.first { $0.keyword == "Thumb::URI" }?.text
        let m = text.first { $0.keyword == "Thumb::MTime" }?.text
        return u == uri && m == String(mtime)
    }

    /// Saves `picture` as the thumbnail of `uri` at `size`.
    public func save(_ picture: StillDecoder.RGBA, uri: String, mtime: Int, size: Size) throws(SaveError) {
        let text = [("Thumb::URI", uri), ("Thumb::MTime", String(mtime)), ("Software", application)]
        guard let png = PNGEncoder.encodeRGBA(picture.pixels, width: picture.width, height: picture.height, text: text) else {
            throw SaveError(description: "cannot encode the thumbnail of \(uri)", code: EINVAL)
        }
        try write(png, to: path(of: uri, size: size), folders: [parent, directory, directory + "/" + size.folder])
    }

    /// Records that `uri` could not be thumbnailed: a 1x1 PNG with its URI and time.
    public func recordFailure(_ uri: String, mtime: Int) throws(SaveError) {
        let text = [("Thumb::URI", uri), ("Thumb::MTime", String(mtime)), ("Software", application)]
        guard let png = PNGEncoder.encodeRGBA([0, 0, 0, 0], width: 1, height: 1, text: text) else {
            throw SaveError(description: "cannot encode the failure record of \(uri)", code: EINVAL)
        }
        try write(png, to: failurePath(of: uri),
                  folders: [parent, directory, directory + "/fail", directory + "/fail/" + application])
    }

    /// The folder the cache is in (`$XDG_CACHE_HOME`), made 0700 if a fresh account has none.
    private var parent: String {
        let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        guard let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex else { return "/" }
        return String(trimmed[..<slash])
    }

    /// Writes `bytes` to a temporary file beside `target` (mode 0600) and renames it into
    /// place, so a reader sees the old file or the whole new one; missing folders are made 0700.
    private func write(_ bytes: [UInt8], to target: String, folders: [String]) throws(SaveError) {
        func fail(_ what: String) -> SaveError {
            let e = errno
            return SaveError(description: "\(what): \(String(cString: strerror(e)))", code: e)
        }
        for folder in folders where mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw fail("cannot make \(folder)")
        }
        let temporary = target + ".mediaview-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw fail("cannot write in \(folders.last ?? directory)") }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                let error = fail("cannot write \(temporary)")
                close(fd)
                unlink(temporary)
                throw error
            }
            done += n
        }
        if close(fd) != 0 {
            let error = fail("cannot write \(temporary)")
            unlink(temporary)
            throw error
        }
        if rename(temporary, target) != 0 {
            let error = fail("cannot save \(target)")
            unlink(temporary)
            throw error
        }
    }
}
