import Glibc
import MediaCore
import Playback
import Viewer
import Web

/// Where long video and audio were left, so they start there next time: one small file,
/// `$XDG_STATE_HOME/mediaview/resume`.
///
/// Each line is `KEY SECONDS UNIXTIME`, where KEY is the SHA-256 of the source's path or
/// URL: the file says nothing about what was watched to someone who reads it, and a URL's
/// tokens never land on disk. It holds at most `maxEntries` lines (the most recent kept),
/// and every change is written to a temporary file and renamed over the old one, so a
/// crash or a full disk leaves the previous file whole (`StateFile`). A damaged line is
/// skipped.
public struct ResumeStore: Sendable {
    /// The file.
    let path: String
    /// Enough for a long history; about 100 KB at most.
    static let maxEntries = 1000
    /// What is read of the file: `maxEntries` lines fit with room to spare.
    static let maxFileBytes = 256 << 10

    /// One remembered position.
    public struct Entry: Equatable, Sendable {
        /// The SHA-256 of the source, in hex.
        public var key: String
        /// Seconds into the source.
        public var position: Double
        /// When it was remembered, in seconds since 1970.
        public var time: Int
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
    ///
    /// Under the file's lock, the file is read again and this one change merged in, so
    /// instances quitting at once each keep their own position.
    @discardableResult
    func record(_ position: Double?, for source: String, now: Int = Int(time(nil))) -> Bool {
        let k = Self.key(source)
        let saved: Bool? = StateFile.locked(path) {
            var entries = load().filter { $0.key != k }
            if let position, position.isFinite { entries.append(Entry(key: k, position: position, time: now)) }
            entries.sort { $0.time < $1.time }
            return save(Array(entries.suffix(Self.maxEntries)))
        }
        return saved ?? false
    }

    /// Every well-formed line of the file's last `maxFileBytes`: a file grown huge (by
    /// another program, or a damaged disk) costs no more to read than a full one.
    func load() -> [Entry] {
        StateFile.read(path, maxBytes: Self.maxFileBytes, keep: .tail).map(Self.entries(in:)) ?? []
    }

    /// The well-formed lines of `bytes`, in order.
    public static func entries(in bytes: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.count < 256 {
            let parts = line.split(separator: UInt8(ascii: " "))
            guard parts.count == 3, parts[0].count == 64,
                  parts[0].allSatisfy(Self.isHexDigit),
                  let p = Double(String(decoding: parts[1], as: UTF8.self)), p.isFinite, p >= 0,
                  let t = Int(String(decoding: parts[2], as: UTF8.self)) else { continue }
            entries.append(Entry(key: String(decoding: parts[0], as: UTF8.self), position: p, time: t))
        }
        return entries
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46)
    }

    /// The file's text for `entries`.
    public static func text(_ entries: [Entry]) -> String {
        entries.map { "\($0.key) \(TextFormat.fixed($0.position, digits: 3)) \($0.time)\n" }.joined()
    }

    private func save(_ entries: [Entry]) -> Bool {
        StateFile.replace(path, with: Array(Self.text(entries).utf8)) == nil
    }
}
