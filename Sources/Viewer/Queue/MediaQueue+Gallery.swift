import Playback

/// The gallery (`g`): the queue as a grid of thumbnails, and jumping to any item of it.
extension MediaQueue {
    /// Items in the playlist (`playlist.count`, without building the array).
    public var itemCount: Int { history.count + views.count }

    /// Playlist item `index` (as `playlist[index]`, without building the array), or nil.
    public func item(at index: Int) -> MediaView? {
        guard index >= 0 else { return nil }
        if index < history.count { return history[index] }
        let i = index - history.count
        return i < views.count ? views[i] : nil
    }

    /// Presents playlist item `index`: the items before it count as seen, those after it
    /// wait, as if the user had stepped there with next and previous (without opening the
    /// ones in between).
    public func presentItem(at index: Int) {
        guard index >= 0, index < itemCount, let position = playlistPosition, index != position else { return }
        if index < position {
            if let c = current {
                dismiss(c, keepInHistory: false)
                views.insert(c, at: 0)
            }
            views.insert(contentsOf: history[index...], at: 0)
            history.removeSubrange(index...)
        } else if let c = current {
            dismiss(c, keepInHistory: true)
            let skipped = index - position - 1
            history += views.prefix(skipped)
            views.removeFirst(skipped)
        }
        presentFirst()
    }

    /// Whether the gallery shows.
    public var isGalleryShown: Bool { screen?.gallery.isShown ?? false }

    /// Shows the queue as a grid of thumbnails, the current item highlighted (the `gallery`
    /// command, `g`). Thumbnails come from `presentation.thumbnailStore` when they are
    /// there, and are made in the background and saved there when not.
    public func showGallery() {
        guard let s = screen, !s.gallery.isShown else { return }
        s.gallery.show(on: s.stage)
    }

    /// Leaves the gallery: with `opening`, presents that playlist index; without, returns
    /// to the item that was showing.
    public func hideGallery(opening index: Int? = nil) {
        guard let s = screen else { return }
        s.gallery.hide(opening: index, on: s.stage)
    }

    /// The highlighted item's playlist index while the gallery shows.
    public var gallerySelection: Int? {
        guard let g = screen?.gallery, g.isShown else { return nil }
        return g.selection
    }
}
