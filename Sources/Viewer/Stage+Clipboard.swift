import Playback
import Windowing

/// Copying what is on screen (Ctrl+C): the picture at its full size as PNG, and where it
/// came from as text, so it pastes into an image editor, a chat or a terminal.
extension Stage {
    /// Decodes the current picture again at full size (the screen shows it scaled) and
    /// encodes it off the main thread, so a big photo does not stop the window; then offers
    /// it on the clipboard.
    func copyPicture() {
        guard let v = view, let source = v.mediaURL else { return }
        let hasPicture = v.info.map { $0.kind != .audio || $0.hasCoverArt } ?? true
        let at: Double? = v.info?.kind == .video ? v.position : nil
        let options = v.settings.playerOptions.source
        Task { @MainActor [weak self] in
            let png: Result<[UInt8], AVError> = hasPicture ? await Task.detached {
                do throws(AVError) {
                    return .success(try PNGEncoder.encode(try StillDecoder.decodeRGBA(url: source, options: options, at: at)))
                } catch {
                    return .failure(error)
                }
            }.value : .success([])
            guard let self else { return }
            let say = router.queue.presentation.onMessage
            switch png {
            case .success(let bytes):
                if !window.offerClipboard(png: bytes, text: source) { say?("nothing copied: another program holds the clipboard") }
            case .failure(let e):
                say?("nothing copied: \(e.message)")
            }
        }
    }
}
