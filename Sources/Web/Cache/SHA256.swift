import CFFmpeg

/// SHA-256, for naming cache files, computed by libavutil's `av_sha`.
///
/// Cache file names come from a hash of the full URL so that the URL's text (which may hold
/// tokens or private paths) never appears on disk, and so that any URL maps to a safe,
/// fixed-length name.
public enum SHA256 {
    /// The lower-case hex digest of `text`'s UTF-8 bytes.
    public static func hex(_ text: String) -> String {
        hex(of: Array(text.utf8))
    }

    /// The lower-case hex digest of `bytes`.
    public static func hex<S: Sequence>(of bytes: S) -> String where S.Element == UInt8 {
        let data = Array(bytes)
        guard let context = av_sha_alloc() else { return "" }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        av_sha_init(context, 256)
        data.withUnsafeBufferPointer { av_sha_update(context, $0.baseAddress, $0.count) }
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
