import Dispatch
import MediaCore
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
        guard let v = view, isMinimized, isAtRest else { return }
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

    /// A window manager may refuse to float or shrink the thumbnail (a tiling one with a rule
    /// against it). The window stays usable as it is; the user hears why once, a moment
    /// later, when the manager has answered.
    func checkThumbnailGranted(_ v: MediaView) {
        guard display.hasWindowManager, !placement.warnedRefusal else { return }
        let wanted = thumbnailFrame(for: v)
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.6) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.isMinimized, self.motion.animation == nil, !self.placement.warnedRefusal else { return }
                let got = self.windowFrame
                guard got.width > wanted.width * 5 / 4 || got.height > wanted.height * 5 / 4 else { return }
                self.placement.warnedRefusal = true
                self.warn?("the window manager kept the thumbnail at \(got.width)x\(got.height) instead of "
                           + "\(wanted.width)x\(wanted.height); a floating rule for the class 'mediaview' lets it be small")
            }
        }
    }

    /// A window manager moved the resting thumbnail itself (its own Alt+drag): that counts as
    /// the user's choice, as our own move does. Only a move is taken, at the size we asked
    /// for, so a manager that merely adjusts the size is not mistaken for the user.
    func noteWindowManagerMove() {
        guard display.hasWindowManager, isMinimized, !isPinned, isAtRest,
              let v = view else { return }
        let now = windowFrame, wanted = thumbnailFrame(for: v)
        guard now.width == wanted.width, now.height == wanted.height, now.x != wanted.x || now.y != wanted.y else { return }
        keepThumbnail(now)
        // Once the manager's drag has come to rest, the thumbnail snaps to a resting place
        // within reach, as after our own Alt+drag.
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.3) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.isMinimized, self.isAtRest,
                      self.windowFrame == now, let v = self.view else { return }
                self.settleThumbnail(v, now: MonotonicClock.seconds())
            }
        }
    }

    /// Uses `frame` for the next minimize and remembers it for the next run.
    func keepThumbnail(_ frame: Rect) {
        placement.thumbnail = frame
        placement.memory?.remember(frame, for: ThumbnailMemory.key(display.monitors))
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
