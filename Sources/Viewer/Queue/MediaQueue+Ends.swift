import Playback

/// Stepping through the queue by hand, as in a photo viewer: at either end the step says
/// so on screen and nothing closes, because a user flicking through a folder expects the
/// last photo to stay, not the program to vanish. Only a quit key ends the program; a
/// script that runs with `autoExit` still ends when it steps past the last item.
extension MediaQueue {
    /// Where the presented item stands in the queue, for a caption such as "3 / 11".
    public struct Position: Equatable, Sendable {
        /// The presented item's place, counting from 1.
        public var number: Int
        /// How many items the queue holds: those seen, the presented one, those waiting.
        public var count: Int

        /// "3 / 11", as photo viewers caption it.
        public var text: String { "\(number) / \(count)" }
    }

    /// The presented item's place and the queue's length; nil while nothing is presented.
    /// The count grows while a large folder is still being queued.
    public var position: Position? {
        guard let p = playlistPosition else { return nil }
        return Position(number: p + 1, count: history.count + views.count)
    }

    /// The `playlist-next` command: the next item, or "Last item" on screen at the end.
    func presentNextByHand() {
        guard let c = current else { return }
        if views.count <= 1 && !presentation.autoExit {
            c.showMessage("Last item")
            return
        }
        presentNext()
    }

    /// The `playlist-prev` command: the item before, or "First item" on screen at the start.
    func presentPreviousByHand() {
        guard let c = current else { return }
        guard hasPrevious else {
            c.showMessage("First item")
            return
        }
        presentPrevious()
    }

    /// The `cycle fit` command: small pictures between their own size and the window's,
    /// for every item, as a photo viewer's zoom-to-fit stays on while the user browses.
    func toggleFit() {
        guard let c = current else { return }
        let next: MediaView.PictureFit = c.pictureFit == .small ? .always : .small
        MediaView.changeAll(playlist) { $0.pictureFit = next }
        c.showMessage(next == .always ? "Small pictures fill the window" : "Small pictures at 100 %")
    }
}
