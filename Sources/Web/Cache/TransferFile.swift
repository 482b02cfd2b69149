import FoundationEssentials
import Glibc

/// The file a download is kept in while it arrives: a temporary in the cache (renamed into
/// place when complete), or, with no writable cache, an unnamed file under `$TMPDIR` that
/// only lets the player go back in what has arrived and vanishes with it.
final class TransferFile {
    private var fd: Int32
    private let path: String?

    /// Nil when neither a cache temporary nor an unnamed file can be made.
    init?(cache: MediaCache?, size: Int64) {
        if let cache, let t = cache.makeTemporary() {
            fd = t.fd
            path = t.path
            // Reserving the size up front makes a full disk fail now rather than at the end.
            if size > 0 && ftruncate(fd, off_t(size)) != 0 {
                Glibc.close(fd)
                unlink(t.path)
                return nil
            }
            return
        }
        let dir = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(dir)/mediaview-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        // Unnamed from the start: nothing is left behind, whatever happens to the process.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
        path = nil
    }

    deinit { discard() }

    /// Writes all of `buffer` at `offset`; false when the disk refused.
    func write(_ buffer: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int64) -> Bool {
        var done = 0
        while done < count {
            let w = pwrite(fd, buffer + done, count - done, off_t(offset) + off_t(done))
            if w <= 0 { return false }
            done += w
        }
        return true
    }

    /// Reads up to `count` kept bytes at `offset`.
    func read(_ buffer: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int64) -> Int {
        guard fd >= 0 else { return -1 }
        return pread(fd, buffer, count, off_t(offset))
    }

    /// Whether the kept bytes begin a web playlist, which no cache keeps (`PlaylistText`).
    var holdsPlaylist: Bool { fd >= 0 && PlaylistText.begins(fd: fd) }

    /// The first `size` bytes, for the memory cache.
    func contents(size: Int64) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: Int(size))
        var done = 0
        while done < out.count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            if n <= 0 { return nil }
            done += n
        }
        return out
    }

    /// Makes the kept bytes the cached copy of `url`; nil (and discarded) when there is no
    /// cache temporary or the commit failed.
    func commit(to cache: MediaCache, url: String, directory: MediaCache.Directory) -> String? {
        guard let path, fd >= 0 else { discard(); return nil }
        let final = cache.commit(fd: fd, temporary: path, url: url, directory: directory)
        Glibc.close(fd)
        fd = -1
        return final
    }

    /// Deletes the copy.
    func discard() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
        if let path { unlink(path) }
    }
}

/// Sorted, merged half-open byte ranges `[start, end)`: which bytes a transfer file holds.
struct ByteRanges {
    private(set) var spans: [(start: Int64, end: Int64)] = []

    mutating func insert(_ start: Int64, _ end: Int64) {
        guard end > start else { return }
        var s = start, e = end
        var kept: [(start: Int64, end: Int64)] = []
        for r in spans {
            if r.end < s || r.start > e { kept.append(r) } else { s = min(s, r.start); e = max(e, r.end) }
        }
        kept.append((s, e))
        spans = kept.sorted { $0.start < $1.start }
    }

    /// Where the covered run holding `offset` ends; nil when `offset` has not arrived.
    func end(from offset: Int64) -> Int64? {
        spans.first { $0.start <= offset && offset < $0.end }?.end
    }

    /// Whether `[start, end)` is covered entirely.
    func covers(_ start: Int64, _ end: Int64) -> Bool {
        if end <= start { return true }
        return spans.contains { $0.start <= start && $0.end >= end }
    }
}
