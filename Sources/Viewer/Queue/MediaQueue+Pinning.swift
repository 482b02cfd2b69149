import Playback
import Windowing

/// Pinned thumbnails: the current item goes on playing in a thumbnail window of its own
/// while the queue presents the next one, up to four at once, stacked up from the corner.
/// Each keeps its own sound (`m` over it mutes it), its controls and its gestures; closing
/// one lets its player go, restoring one makes it the presented item again.
extension MediaQueue {
    /// How many thumbnails can be pinned at once: more would cover the screen's side.
    public static let maximumPinned = 4

    /// The views playing in pinned thumbnails, oldest first.
    public var pinnedViews: [MediaView] { screen?.pinned.compactMap(\.view) ?? [] }

    /// Pins the presented view: it keeps playing in a thumbnail of its own and the next view
    /// is presented. Nothing happens with no view presented, or four already pinned.
    public func pinCurrent() {
        guard var s = screen, let v = current, s.pinned.count < MediaQueue.maximumPinned else { return }
        let frame = pinnedFrame(index: s.pinned.count, for: v, on: s.stage)
        var options = presentation
        options.windowed = true
        options.parentWindow = nil
        options.geometry = (frame.width, frame.height, frame.x, frame.y)
        guard let pinned = try? Stage(display: s.display, loop: s.loop, router: s.router, options: options,
                                       takesFocus: false) else { return }
        views.removeAll { $0 === v }
        current = nil
        s.stage.clear()
        s.stage.leaveThumbnail()
        pinned.showPinned(v, at: frame)
        s.pinned.append(pinned)
        screen = s
        if views.isEmpty { s.stage.hide() }
        presentFirst()
    }

    /// Closes a pinned thumbnail; with `present` its view becomes the presented one (still
    /// playing where it was), else it is dismissed as a closed item is.
    func unpin(_ stage: Stage, present: Bool) {
        guard var s = screen, let i = s.pinned.firstIndex(where: { $0 === stage }) else { return }
        let v = stage.view
        stage.clear()
        stage.window.unmap()
        s.pinned.remove(at: i)
        screen = s
        for (index, p) in s.pinned.enumerated() {
            if let pv = p.view { p.setFrame(pinnedFrame(index: index, for: pv, on: s.stage)) }
        }
        guard let v else { return }
        if present {
            self.present(mediaView: v)
        } else {
            v.notify { $0.willDismiss(mediaView: v) }
            v.pause()
            v.notify { $0.didDismiss(mediaView: v) }
            v.releaseSession()
        }
    }

    /// The `index`th pinned thumbnail's frame: the view's thumbnail corner, then stacked
    /// upward with the usual margin so none covers another.
    func pinnedFrame(index: Int, for v: MediaView, on stage: Stage) -> Rect {
        let base = stage.layout(for: v).minimizedFrame
        return Rect(x: base.x, y: base.y - index * (base.height + ThumbnailLayout.margin), width: base.width,
                    height: base.height)
    }
}
