import CFFmpeg
import FoundationEssentials
import Glibc

/// What a cache entry was when it was committed: its length and an MD5 of its bytes, kept
/// in `ROOT/records/<directory>-<name>.sum` (the media directories hold media only), so a copy damaged since (a disk error, a crash of another
/// tool, someone editing it) is caught when opened rather than played as if whole.
///
/// Checking must stay cheap on every open, so a large entry's digest covers 64 blocks of
/// 64 KiB spread evenly over it (4 MiB read whatever its size) plus its exact length; an
/// entry up to 8 MiB (every photo, most clips) is digested whole.
enum CacheRecord {
    static let suffix = ".sum"
    private static let wholeLimit: Int64 = 8 << 20
    private static let block = 64 * 1024
    private static let blocks = 64

    /// `ROOT/records/video-<name>.sum` for `ROOT/video/<name>`.
    static func sidecar(_ entry: String) -> String {
        let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return entry + suffix }
        let root = parts.dropLast(2).joined(separator: "/")
        return root + "/records/" + parts[parts.count - 2] + "-" + parts[parts.count - 1] + suffix
    }

    /// Records `fd`'s length and digest for `entry`; false when it could not be written.
    static func write(fd: Int32, for entry: String) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0, let digest = digest(fd: fd, length: Int64(st.st_size)) else { return false }
        let text = "mediaview-cache 1\nlength \(st.st_size)\nmd5 \(digest)\n"
        let temporary = sidecar(entry) + ".tmp"
        let out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard out >= 0 else { return false }
        let bytes = Array(text.utf8)
        let ok = Glibc.write(out, bytes, bytes.count) == bytes.count && fsync(out) == 0
        close(out)
        guard ok, rename(temporary, sidecar(entry)) == 0 else { unlink(temporary); return false }
        return true
    }

    /// Nil when `entry` is what was recorded; otherwise why it is not, in a few words.
    static func problem(with entry: String) -> String? {
        guard let text = try? String(contentsOfFile: sidecar(entry), encoding: .utf8) else {
            return "it has no record of its length and checksum"
        }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let length = fields["length"].flatMap({ Int64($0) }), let want = fields["md5"] else {
            return "its record is unreadable"
        }
        let fd = open(entry, O_RDONLY)
        guard fd >= 0 else { return "it cannot be read" }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "it cannot be read" }
        if Int64(st.st_size) != length { return "it is \(st.st_size) bytes, not the \(length) stored" }
        guard digest(fd: fd, length: length) == want else { return "its checksum does not match" }
        return nil
    }

    /// MD5 of the whole file, or of evenly spread blocks of a large one.
    private static func digest(fd: Int32, length: Int64) -> String? {
        guard let md5 = av_md5_alloc() else { return nil }
        defer { av_free(UnsafeMutableRawPointer(md5)) }
        av_md5_init(md5)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: block)
        defer { buffer.deallocate() }
        func add(_ offset: Int64, _ count: Int64) -> Bool {
            var done: Int64 = 0
            while done < count {
                let n = pread(fd, buffer, Int(min(Int64(block), count - done)), off_t(offset + done))
                if n <= 0 { return false }
                av_md5_update(md5, buffer, n)
                done += Int64(n)
            }
            return true
        }
        if length <= wholeLimit {
            guard add(0, length) else { return nil }
        } else {
            let span = length - Int64(block)
            for i in 0..<blocks {
                guard add(span * Int64(i) / Int64(blocks - 1), Int64(block)) else { return nil }
            }
        }
        var out = [UInt8](repeating: 0, count: 16)
        av_md5_final(md5, &out)
        return out.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
