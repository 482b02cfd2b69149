import CFFmpeg
import FoundationEssentials
import Glibc
import Web

/// Track previews of one web video kept on disk, so a URL opened again shows its previews
/// at once instead of reading its ranges from the server again.
///
/// They live in the media cache's `previews/` directory, named from the same SHA-256 of
/// the full URL as the cached media (never from the URL's text): `<sha>.idx` holds the
/// keyframe times, `<sha>-w<width>-<ms>.pv` one small picture. Each file is written to a
/// temporary name and renamed, so a reader never sees half of one; the directory is kept
/// under `capBytes` by deleting the least recently used files, and clearing the cache
/// clears it too. A file that does not read back as what it should be is deleted and
/// decoded again.
public final class PreviewStore: Sendable {
    let cache: MediaCache
    let stem: String
    let width: Int
    /// The whole `previews/` directory's budget.
    let capBytes: Int64
    /// The default budget: ~1500 previews of 160 x 90.
    public static let defaultCapBytes: Int64 = 32 << 20

    /// The store of `url`'s previews `width` pixels wide in `cache`, whose `previews/`
    /// directory is kept within `capBytes`; nil when the cache cannot be written.
    public init?(cache: MediaCache, url: String, width: Int, capBytes: Int64 = PreviewStore.defaultCapBytes) {
        guard cache.isWritable else { return nil }
        self.cache = cache
        self.capBytes = capBytes
        stem = cache.root + "/" + MediaCache.Directory.previews.rawValue + "/" + SHA256.hex(url)
        self.width = width
    }

    /// The keyframe times stored for this URL, or nil.
    func keyframes() -> [Double]? {
        guard let bytes = PreviewStore.read(stem + ".idx", limit: 8 * 100_000 + 16) else { return nil }
        return PreviewFile.decodeIndex(bytes)
    }

    /// Keeps the keyframe times for the next opening.
    func save(keyframes: [Double]) {
        write(PreviewFile.encodeIndex(keyframes), to: stem + ".idx")
    }

    /// The stored picture for the keyframe at `key` seconds, or nil.
    func picture(at key: Double) -> VideoFrame? {
        let path = name(key)
        guard let bytes = PreviewStore.read(path, limit: PreviewFile.largest) else { return nil }
        guard let frame = PreviewFile.decode(bytes) else {
            unlink(path)
            return nil
        }
        utimensat(AT_FDCWD, path, nil, 0)
        return frame
    }

    /// Keeps `frame` as the picture for `key`.
    func save(_ frame: VideoFrame, at key: Double) {
        guard let bytes = PreviewFile.encode(frame) else { return }
        write(bytes, to: name(key))
    }

    private func name(_ key: Double) -> String {
        "\(stem)-w\(width)-\(Int((key * 1000).rounded())).pv"
    }

    private func write(_ bytes: [UInt8], to path: String) {
        let temporary = path + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        let ok = Glibc.write(fd, bytes, bytes.count) == bytes.count
        close(fd)
        guard ok, rename(temporary, path) == 0 else { unlink(temporary); return }
        cache.evictPreviews(to: capBytes)
    }

    /// The bytes of a regular file of at most `limit` bytes, or nil.
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0, st.st_size <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n == bytes.count ? bytes : nil
    }
}
