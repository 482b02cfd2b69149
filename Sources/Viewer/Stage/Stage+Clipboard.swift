import Glibc
import Playback
import Windowing
import MediaCore

/// Copying what is on screen (Ctrl+C): the picture at the media's own resolution as PNG
/// (as a screenshot is made), where it came from as text, and a local file as a file, so
/// it pastes into an image editor, a chat, a terminal or a file manager's folder. A short
/// message says what went on the clipboard, since copying shows nothing else.
extension Stage {
    /// Offers the picture and its source on the clipboard; a big photo shown from a reduced
    /// decode is offered once its full-size decode is there, a moment later.
    func copyPicture() {
        view?.withFullSizePicture { [weak self] v in
            guard let self, self.view === v, let source = v.mediaURL else { return }
            // Sound only or not loaded: the source alone, still worth pasting.
            let png = v.pictureAsPNG() ?? []
            let file = MediaQueue.localPath(source).map(Self.fileURI)
            guard self.window.offerClipboard(png: png, text: source, fileURI: file) else {
                self.router.queue.presentation.onMessage?("nothing copied: another program holds the clipboard")
                v.showMessage("Nothing copied: another program holds the clipboard")
                return
            }
            let what = file != nil ? "the file" : "the address"
            v.showMessage(png.isEmpty ? "Copied \(what)" : "Copied the picture and \(what)")
        }
    }

    /// `file://` and the absolute path, with every byte that is not plain ASCII, or would
    /// mean something in a URI, written as %XX (RFC 8089 and 3986).
    static func fileURI(_ path: String) -> String {
        FileName.fileURL(absolutePath: path.hasPrefix("/") ? path : currentDirectory() + "/" + path)
    }

    private static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "" }
        return FileName.decode(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }
}
