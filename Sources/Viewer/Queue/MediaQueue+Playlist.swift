/// Editing the playlist in place, as a controlling script does: an item put right after
/// the one on screen, one taken out, everything emptied.
extension MediaQueue {
    /// Puts `mediaView` at playlist index `index` (clamped to the ends) without changing
    /// what is on screen; before the presented item it counts as already seen. With
    /// nothing presented it is presented.
    public func insert(_ mediaView: MediaView, at index: Int) {
        guard !playlist.contains(where: { $0 === mediaView }) else { return }
        let at = max(0, min(index, itemCount))
        if at < history.count {
            history.insert(mediaView, at: at)
            return
        }
        let waiting = at - history.count
        if current == nil || waiting >= views.count {
            queue(mediaView: mediaView)
            return
        }
        // Never before the presented view, which stays first of `views`.
        views.insert(mediaView, at: max(1, waiting))
        mediaView.preloadIfWanted()
        if views.count > 1 { prepare(views[1]) }
    }

    /// Takes playlist item `index` out. The presented one is dismissed and the next one,
    /// if any, presented in its place (mpv's `playlist-remove current`).
    public func removeItem(at index: Int) {
        guard let v = item(at: index) else { return }
        if v === current {
            dismiss(v, keepInHistory: false)
            presentFirst()
        } else if index < history.count {
            history.remove(at: index)
            preparePrevious()
        } else {
            dequeue(mediaView: v)
        }
    }

    /// Empties the playlist: the presented view is dismissed and everything is let go of
    /// (mpv's `stop`). The loop ends unless `presentation.idles`.
    public func removeAll() {
        if let c = current { dismiss(c, keepInHistory: false) }
        unprepare()
        for v in history + views { v.releaseSession() }
        preparedPrevious = nil
        history.removeAll()
        views.removeAll()
        screen?.stage.needsRedraw = true
    }
}
