import FoundationEssentials
import Glibc
import Playback
import Windowing

extension MediaView {
    /// What a view shows, as the owner set it.
    ///
    /// Only the media is kept in the value itself; the rest, which most views of a folder
    /// never have, waits in a box made when the first of it is set, so a view costs little
    /// more than its path.
    struct Content {
        var url: String?
        var kind: MediaKind?
        private var extras: ExtrasBox?

        /// What a view rarely has: a thumbnail, a preview, words, files, a reason it cannot play.
        struct Extras {
            var thumbnailURL: String?
            var thumbnailImage: RGBAImage?
            var previewGIFURL: String?
            var title: String?
            var details: String?
            /// Files written for media given as bytes, removed with the content.
            var files: TemporaryFiles?
            /// Why the media cannot even be tried (its bytes could not be written, say);
            /// told when the view is presented.
            var unusable: MediaError?
        }

        /// Content with these words and nothing else.
        init(title: String? = nil, details: String? = nil) {
            self.title = title
            self.details = details
        }

        var thumbnailURL: String? {
            get { extras?.value.thumbnailURL }
            set { change(newValue == nil) { $0.thumbnailURL = newValue } }
        }
        var thumbnailImage: RGBAImage? {
            get { extras?.value.thumbnailImage }
            set { change(newValue == nil) { $0.thumbnailImage = newValue } }
        }
        var previewGIFURL: String? {
            get { extras?.value.previewGIFURL }
            set { change(newValue == nil) { $0.previewGIFURL = newValue } }
        }
        var title: String? {
            get { extras?.value.title }
            set { change(newValue == nil) { $0.title = newValue } }
        }
        var details: String? {
            get { extras?.value.details }
            set { change(newValue == nil) { $0.details = newValue } }
        }
        var files: TemporaryFiles? {
            get { extras?.value.files }
            set { change(newValue == nil) { $0.files = newValue } }
        }
        var unusable: MediaError? {
            get { extras?.value.unusable }
            set { change(newValue == nil) { $0.unusable = newValue } }
        }

        /// Changes the extras, copying them first when another content shares them; clearing
        /// what is not there makes no box.
        private mutating func change(_ clearing: Bool, _ body: (inout Extras) -> Void) {
            guard var box = extras else {
                if clearing { return }
                var fresh = Extras()
                body(&fresh)
                extras = ExtrasBox(fresh)
                return
            }
            extras = nil
            if isKnownUniquelyReferenced(&box) { body(&box.value) } else { var copy = box.value; body(&copy); box = ExtrasBox(copy) }
            extras = box
        }

        /// The extras of one or more contents (a copy shares them until one changes).
        final class ExtrasBox {
            var value: Extras
            init(_ value: Extras) { self.value = value }
        }
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
