import Glibc
import MediaCore
import Playback

/// Tells whether a file in a folder is something the viewer can show.
///
/// The extension decides when it is a known media one, which costs nothing; a file with
/// another extension or none is opened and its first bytes compared with the signatures
/// of the formats FFmpeg and libjpeg read here, so photos straight off a camera card or a
/// download saved without its extension still join the queue, and a text file does not.
public enum MediaSniffer {
    /// Extensions of the pictures, videos and sound this viewer shows (lower case).
    public static let mediaExtensions: Set<String> = [
        // Pictures.
        "jpg", "jpeg", "jpe", "jfif", "png", "apng", "gif", "webp", "bmp", "tif", "tiff", "tga", "ppm",
        "pgm", "pbm", "pnm", "qoi", "ico", "exr", "dds", "pcx", "avif", "heic", "heif", "jxl", "svg", "svgz",
        // Video.
        "mp4", "m4v", "mkv", "webm", "mov", "avi", "wmv", "flv", "mpg", "mpeg", "ts", "m2ts", "mts", "3gp",
        "ogv", "vob", "asf",
        // Sound.
        "mp3", "flac", "ogg", "oga", "opus", "wav", "m4a", "aac", "wma", "ape", "wv", "aif", "aiff", "mka",
        "ac3", "caf",
    ]

    /// Extensions that are surely not media: not worth opening.
    static let otherExtensions: Set<String> = [
        "txt", "md", "pdf", "doc", "docx", "odt", "json", "xml", "html", "htm", "css", "js", "swift", "c",
        "h", "py", "sh", "zip", "gz", "xz", "tar", "7z", "rar", "deb", "iso", "db", "ini", "conf", "log",
        "xmp", "pp3", "dop", "thm", "nfo", "srt", "sub", "ass", "vtt", "cue", "m3u", "pls",
    ]

    /// True when `path` (named `name`) is media: by extension, else by content.
    public static func isMedia(path: String, name: String) -> Bool {
        let ext = fileExtension(name)
        if mediaExtensions.contains(ext) { return true }
        if otherExtensions.contains(ext) { return false }
        return sniff(path: path)
    }

    /// The lower-case extension of a file name, or "" when it has none.
    public static func fileExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// Reads the first bytes and compares them with media signatures.
    static func sniff(path: String) -> Bool {
        let fd = FileName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 16) }
        guard n >= 4 else { return false }
        return looksLikeMedia(Array(head[0..<n]))
    }

    /// True for the signatures of JPEG, PNG, GIF, WebP/AVI/WAV (RIFF), TIFF, BMP, ISO
    /// media (MP4, MOV, M4A, and AVIF and HEIC pictures), JPEG XL, Matroska/WebM, Ogg, FLAC
    /// and MP3 (ID3 or a frame sync).
    public static func looksLikeMedia(_ b: [UInt8]) -> Bool {
        func starts(_ s: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + s.count && Array(b[offset..<offset + s.count]) == s
        }
        if starts([0xFF, 0xD8, 0xFF]) || starts([0x89, 0x50, 0x4E, 0x47]) || starts(Array("GIF8".utf8)) { return true }
        if starts(Array("RIFF".utf8)) || starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return true }
        if starts(Array("BM".utf8)) && b.count >= 14 { return true }
        if starts(Array("ftyp".utf8), at: 4) || starts([0x1A, 0x45, 0xDF, 0xA3]) { return true }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return true }
        if starts(Array("OggS".utf8)) || starts(Array("fLaC".utf8)) || starts(Array("ID3".utf8)) { return true }
        if b.count >= 2, b[0] == 0xFF, b[1] & 0xE0 == 0xE0 { return true }
        return false
    }
}
