import Glibc
import MediaCore

/// Recognises a web playlist (HLS's M3U8, DASH's MPD) by its first bytes.
///
/// A playlist is never kept in the caches: its parts are named relative to its address, so
/// a copy opened from the disk cache would look for them beside the copy; and a live one
/// changes from load to load, so a kept copy would replay an old window of the stream.
package enum PlaylistText {
    /// How many leading bytes are enough to tell.
    package static let head = 256

    /// The two kinds of web playlist.
    package enum Kind: Equatable, Sendable {
        /// HLS: an M3U8 playlist.
        case hls
        /// MPEG-DASH: an MPD document.
        case dash
    }

    /// Whether `bytes`, a file's first bytes, begin a playlist: `#EXTM3U` (after a byte-order
    /// mark or blank space), or an XML document whose first element is `MPD` (after its
    /// declaration and comments). A web page that only mentions MPD is not one.
    package static func begins(_ bytes: UnsafeRawBufferPointer) -> Bool { kind(bytes) != nil }

    /// Which playlist `bytes`, a file's first bytes, begin; nil for anything else.
    package static func kind(_ bytes: UnsafeRawBufferPointer) -> Kind? {
        var text = ArraySlice(bytes.prefix(head))
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        text = blankless(text)
        if text.starts(with: Array("#EXTM3U".utf8)) { return .hls }
        // Past the XML declaration and comments, to the first element.
        while true {
            if text.starts(with: Array("<?".utf8)) {
                guard let end = text.firstRange(of: Array("?>".utf8)) else { return nil }
                text = blankless(text[end.upperBound...])
            } else if text.starts(with: Array("<!--".utf8)) {
                guard let end = text.firstRange(of: Array("-->".utf8)) else { return nil }
                text = blankless(text[end.upperBound...])
            } else {
                break
            }
        }
        guard text.starts(with: Array("<MPD".utf8)) else { return nil }
        let after = text.dropFirst(4).first
        return after == nil || [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">")].contains(after!) ? .dash : nil
    }

    private static func blankless(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        text.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// Whether the file open at `fd` begins a playlist (read with `pread`, the offset kept).
    package static func begins(fd: Int32) -> Bool {
        var first = [UInt8](repeating: 0, count: head)
        let n = first.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, head, 0) }
        guard n > 0 else { return false }
        return first.withUnsafeBytes { begins(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
    }

    /// Whether the file at `path` begins a playlist; false when it cannot be read.
    package static func begins(path: String) -> Bool {
        let fd = FileName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return begins(fd: fd)
    }
}
