import Playback
import Windowing

extension Stage {
    /// Shows `v` as a pinned thumbnail at `frame`, already small and floating.
    func showPinned(_ v: MediaView, at frame: Rect) {
        placement.pinned = true
        show(v)
        isMinimized = true
        motion.fade.overlay = 0
        window.setFloating(true)
        tellWindowManager(minimized: true, view: v)
        setFrame(frame)
        v.setLowPower(true)
    }

    /// Back to the presented size without a view (its item was pinned away).
    func leaveThumbnail() {
        guard isMinimized else { return }
        isMinimized = false
        motion.fade.overlay = 1
        window.setUtilityType(false)
        window.setOnAllWorkspaces(false)
        window.setSizeHints(aspect: nil)
        restorePresentedState()
    }

    /// Takes the window off the screen while it has nothing to show.
    func hide() {
        if window.isMapped { window.unmap() }
    }

    /// Puts the window back when there is something to show again.
    func unhide() {
        guard !window.isMapped else { return }
        window.map()
        if placement.wantsFullscreen && !window.isEmbedded && !isMinimized { window.setFullscreen(true) }
        takeFocus()
    }

    /// The window is on screen again (shown after hiding, back from the thumbnail): it asks
    /// for the keyboard focus, so the next key the user types reaches it. A pinned thumbnail
    /// and an embedded view leave the focus where it is.
    func takeFocus() {
        guard !isPinned, !window.isEmbedded else { return }
        window.activate(time: input.lastTime)
    }
}
