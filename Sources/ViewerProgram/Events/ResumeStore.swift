import Glibc
import Playback

/// Where long video and audio were left, so they start there next time: one small file,
/// `$XDG_STATE_HOME/mediaview/resume`.
///
/// Each line is `KEY SECONDS UNIXTIME`, where KEY is the SHA-256 of the source's path or
/// URL: the file says nothing about what was watched to someone who reads it, and a URL's
/// tokens never land on disk. It holds at most `maxEntries` lines (the most recent kept),
/// and every change is written to a temporary file and renamed over the old one, so a
/// crash or a full disk leaves the previous file whole. A damaged line is skipped.
struct ResumeStore {
    /// The file.
    let path: String
    /// Enough for a long history; about 100 KB at most.
    static let maxEntries = 1000

    /// One remembered position.
    struct Entry: Equatable {
        var key: String
        var position: Double
        var time: Int
    }

    /// The store in the file at `path`.
    init(path: String) { self.path = path }

    static func key(_ source: String) -> String { SHA256.hex(source) }

    /// Where `source` was left, if it was.
    func position(for source: String) -> Double? {
        let k = Self.key(source)
        return load().last(where: { $0.key == k })?.position
    }

    /// Remembers `position` for `source`, or forgets it when nil (played to the end).
    /// Returns false when the file could not be written.
    @discardableResult
    func record(_ position: Double?, for source: String, now: Int = Int(time(nil))) -> Bool {
        let k = Self.key(source)
        var entries = load().filter { $0.key != k }
        if let position, position.isFinite { entries.append(Entry(key: k, position: position, time: now)) }
        entries.sort { $0.time < $1.time }
        return save(Array(entries.suffix(Self.maxEntries)))
    }

    /// Every well-formed line of the file.
    func load() -> [Entry] {
        guard let f = fopen(path, "r") else { return [] }
        defer { fclose(f) }
        var entries: [Entry] = []
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), f) != nil {
            let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard parts.count == 3, parts[0].count == 64, parts[0].allSatisfy(\.isHexDigit),
                  let p = Double(parts[1]), p.isFinite, p >= 0, let t = Int(parts[2]) else { continue }
            entries.append(Entry(key: String(parts[0]), position: p, time: t))
        }
        return entries
    }

    private func save(_ entries: [Entry]) -> Bool {
        let dir = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        makeDirectories(dir)
        let text = entries.map { "\($0.key) \(TextFormat.fixed($0.position, digits: 3)) \($0.time)\n" }.joined()
        let tmp = path + ".\(getpid()).tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { close(fd); unlink(tmp); return false }
            offset += n
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(tmp, path) == 0 else { unlink(tmp); return false }
        return true
    }

    /// `mkdir -p` with mode 0700: what was watched is the user's business.
    private func makeDirectories(_ dir: String) {
        var built = ""
        for part in dir.split(separator: "/") {
            built += "/" + part
            mkdir(built, 0o700)
        }
    }
}
