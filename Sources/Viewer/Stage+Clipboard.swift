import Dispatch
import Playback
import Windowing

/// Copying what is on screen (Ctrl+C): the picture at the media's own resolution as PNG
/// (as a screenshot is made), and where it came from as text, so it pastes into an image
/// editor, a chat or a terminal.
extension Stage {
    /// Offers the picture and its source on the clipboard; a big photo shown from a reduced
    /// decode is offered once its full-size decode is there, a moment later.
    func copyPicture(attempt: Int = 0) {
        guard let v = view, let source = v.mediaURL else { return }
        if attempt < 200, v.awaitsFullSizePicture() {
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { [weak self, weak v] in
                MainActor.assumeIsolated {
                    guard let self, let v, self.view === v else { return }
                    self.copyPicture(attempt: attempt + 1)
                }
            }
            return
        }
        // Sound only or not loaded: the source alone, still worth pasting.
        let png = v.pictureAsPNG() ?? []
        if !window.offerClipboard(png: png, text: source) {
            router.queue.presentation.onMessage?("nothing copied: another program holds the clipboard")
        }
    }
}
