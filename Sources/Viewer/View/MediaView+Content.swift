import FoundationEssentials
import Glibc
import Playback
import Windowing

extension MediaView {
    /// What a view shows, as the owner set it.
    struct Content {
        var url: String?
        var kind: MediaKind?
        var thumbnailURL: String?
        var thumbnailImage: RGBAImage?
        var previewGIFURL: String?
        var title: String?
        var details: String?
        /// Files written for media given as bytes, removed with the content.
        var files = TemporaryFiles()
        /// Why the media cannot even be tried (its bytes could not be written, say); told
        /// when the view is presented.
        var unusable: MediaError?
    }

    /// Where media given as bytes (`setGIF(data:)`) is written; an app may point it at
    /// its own private directory.
    public static var temporaryDirectory = "/tmp"
}

/// Temporary files that live as long as the content that names them.
final class TemporaryFiles {
    private(set) var paths: [String] = []

    /// Writes `data` to a new private file ending in `suffix`; nil when it cannot.
    func write(_ data: Data, suffix: String, in directory: String) -> String? {
        var template = Array("\(directory)/mediaview-XXXXXX\(suffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let ok = data.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress, raw.count) == raw.count }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if !ok { unlink(path); return nil }
        paths.append(path)
        return path
    }

    deinit {
        for p in paths { unlink(p) }
    }
}
