import Playback
import Windowing

/// The thumbnail as a window of its own: where it sits (the default corner or where the
/// user moved it), moving it with Alt+drag and snapping, resizing it with Ctrl+wheel,
/// remembering that per monitor layout, and what it tells the window manager.
extension Stage {
    /// The free part of the monitor that holds the window's centre.
    var freeArea: Rect {
        let m = display.monitor(containingX: window.x + window.width / 2, y: window.y + window.height / 2)
        return display.workArea(within: m) ?? m
    }

    /// Where `v`'s thumbnail goes: where the user left it on this monitor layout, else the
    /// bottom-right corner the view's options describe.
    func thumbnailFrame(for v: MediaView) -> Rect {
        if let t = placement.thumbnail, display.monitors.contains(where: { $0.contains(x: t.x + t.width / 2, y: t.y + t.height / 2) }) {
            return t
        }
        return layout(for: v).minimizedFrame
    }

    /// Follows an Alt+drag of the thumbnail.
    func moveThumbnail(from start: Rect, dx: Int, dy: Int) {
        setFrame(Rect(x: start.x + dx, y: start.y + dy, width: start.width, height: start.height))
    }

    /// An Alt+drag ended: settle at a resting place within reach, or where it was dropped.
    func settleThumbnail(_ v: MediaView, now: Double) {
        let free = display.workArea(within: display.monitor(containingX: window.x + window.width / 2,
                                                           y: window.y + window.height / 2)) ?? freeArea
        let target = ThumbnailSnap.settle(windowFrame, in: free, top: v.topBuffer.pixels, bottom: v.bottomBuffer.pixels)
        animate(to: target, now: now) { [self] in keepThumbnail(target) }
    }

    /// Ctrl+wheel over the thumbnail: a tenth larger or smaller, its aspect kept.
    func resizeThumbnail(larger: Bool) {
        guard let v = view, isMinimized, animation == nil, gestures.drag == nil else { return }
        let monitor = display.monitor(containingX: window.x + window.width / 2, y: window.y + window.height / 2)
        let target = ThumbnailSnap.resized(windowFrame, by: larger ? 1.1 : 1 / 1.1,
                                           aspect: v.minimizedAspectRatio.clamped.heightOverWidth, monitor: monitor)
        setFrame(target)
        keepThumbnail(target)
        surface.compact()
        needsRedraw = true
    }

    /// Follows a drag of the thumbnail's border.
    func resizeThumbnail(from start: Rect, pulling edges: ThumbnailSnap.Edges, dx: Int, dy: Int) {
        guard let v = view else { return }
        let monitor = display.monitor(containingX: start.x + start.width / 2, y: start.y + start.height / 2)
        setFrame(ThumbnailSnap.resized(start, pulling: edges, dx: dx, dy: dy,
                                       aspect: v.minimizedAspectRatio.clamped.heightOverWidth, monitor: monitor))
        needsRedraw = true
    }

    /// Uses `frame` for the next minimize and remembers it for the next run.
    func keepThumbnail(_ frame: Rect) {
        placement.thumbnail = frame
        placement.memory?.remember(frame, for: ThumbnailMemory.key(display.monitors))
    }

    /// What the window manager hears as a drag toward the thumbnail starts: a utility window,
    /// which tiling managers float, so the drag itself can move and size it. (An animated
    /// minimize does not say it first: openbox then drops the animation's frames.)
    func announceFloating() {
        window.setUtilityType(true)
    }

    /// What the window manager hears when the view has become a thumbnail or stopped being
    /// one: a utility window on every workspace unless the view says otherwise, resizable
    /// only with its aspect between the limits a user can reach.
    func tellWindowManager(minimized: Bool, view v: MediaView) {
        window.setUtilityType(minimized)
        window.setOnAllWorkspaces(minimized && v.minimizedOnAllWorkspaces)
        if minimized {
            let monitor = display.monitor(containingX: window.x + window.width / 2, y: window.y + window.height / 2)
            window.setSizeHints(aspect: (window.width, window.height), minWidth: ThumbnailSnap.minimumWidth,
                                maxWidth: max(ThumbnailSnap.minimumWidth, monitor.width / 2))
        } else {
            window.setSizeHints(aspect: nil)
        }
    }
}
