import Playback
import Windowing

/// Copying what is on screen (Ctrl+C): the picture at the media's own resolution as PNG
/// (as a screenshot is made), and where it came from as text, so it pastes into an image
/// editor, a chat or a terminal.
extension Stage {
    /// Offers the picture and its source on the clipboard; a big photo shown from a reduced
    /// decode is offered once its full-size decode is there, a moment later.
    func copyPicture() {
        view?.withFullSizePicture { [weak self] v in
            guard let self, self.view === v, let source = v.mediaURL else { return }
            // Sound only or not loaded: the source alone, still worth pasting.
            if !self.window.offerClipboard(png: v.pictureAsPNG() ?? [], text: source) {
                self.router.queue.presentation.onMessage?("nothing copied: another program holds the clipboard")
            }
        }
    }
}
