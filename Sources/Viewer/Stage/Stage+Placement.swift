import MediaCore
import Playback
import Windowing

/// Where a stage's window is: fullscreen or windowed, grown from a host window or from the
/// view's origin rectangle, and what happens when the screen changes under it.
extension Stage {
    /// Carries out a command that belongs to the window rather than the media.
    func perform(_ c: PlayerCommand) {
        let now = MonotonicClock.seconds()
        needsRedraw = true
        switch c {
        case .dismiss:
            if window.isDetached { returnInline(now: now) } else { dismissToOrigin(now: now) }
        case .toggleFullscreen:
            if window.isDetached { returnInline(now: now) }
            else if window.isEmbedded { presentFromInline(now: now) }
            else { toggleFullscreen() }
        case .toggleDetails:
            // With no title to show (no --title, no song tags), `i` shows what the file
            // itself says rather than nothing.
            if let v = view, v.captionTitle == nil, v.captionDetails == nil { infoPanel.isShown.toggle() }
            else { controls.until = controlsVisible(now: now) ? 0 : now + 3600 }
        case .toggleInfo:
            infoPanel.isShown.toggle()
        case .minimize:
            setMinimized(true, animated: true)
        case .restore:
            setMinimized(false, animated: true)
        case .seek, .seekAbsolutePercent, .seekAbsolute, .chapter:
            showControls(now: now)
        case .paste:
            if let why = window.paste() { router.queue.presentation.onMessage?("nothing pasted: \(why)") }
        case .copy:
            copyPicture()
        default:
            break
        }
    }

    /// The rectangle, in screen coordinates, that presenting grows from and dismissing
    /// shrinks back to: the view's own place in its host, or the origin rectangle it names.
    func originFrame(of v: MediaView) -> Rect? {
        if v.shouldPresentFromOriginRect, window.parent != nil { return window.rootFrame }
        if let r = v.originRectConverted { return r.isEmpty ? nil : r }
        if let r = v.originRect, !r.isEmpty {
            // In the host window's coordinates when there is one, else the screen's.
            let host = window.parent.flatMap { display.rootOrigin(of: $0) } ?? (0, 0)
            return Rect(x: r.x + host.x, y: r.y + host.y, width: r.width, height: r.height)
        }
        return nil
    }

    /// Starts a presented view at its origin rectangle, growing to where it belongs.
    func growFromOrigin(_ v: MediaView) {
        guard !window.isEmbedded, !isMinimized, motion.animation == nil, let origin = originFrame(of: v) else { return }
        let target = presentedFrame
        window.setFloating(true)
        setFrame(origin)
        animate(to: target, now: MonotonicClock.seconds()) { [self] in restorePresentedState() }
    }

    /// Dismisses the view, shrinking it into its origin rectangle first when it has one.
    func dismissToOrigin(now: Double) {
        guard let v = view, motion.animation == nil else { return }
        guard !window.isEmbedded, !isMinimized, let origin = originFrame(of: v) else {
            router.dismissCurrent(from: self)
            return
        }
        window.setFloating(true)
        animate(to: origin, now: now) { [self] in
            router.dismissCurrent(from: self)
            if view != nil { restorePresentedState() }
        }
    }

    /// Takes the view off screen with its motion, then runs `done` (which dismisses it):
    /// shrinking into its origin rectangle when it has one, else fading to black in place.
    /// False, with nothing done, when no motion fits now (embedded, minimized, or another
    /// motion running): the caller dismisses at once.
    func animateDismissal(done: @escaping @MainActor () -> Void) -> Bool {
        guard let v = view, motion.animation == nil, !window.isEmbedded, !isMinimized else { return false }
        let now = MonotonicClock.seconds()
        if let origin = originFrame(of: v) {
            window.setFloating(true)
            animate(to: origin, now: now) { [self] in
                done()
                if view != nil { restorePresentedState() }
            }
        } else {
            animate(to: windowFrame, now: now, fadeTo: 0) { [self] in
                done()
                // The next view comes in at full strength.
                motion.fade.content = 1
                needsRedraw = true
            }
        }
        return true
    }

    /// Grows an embedded view from its rectangle to the whole screen.
    func presentFromInline(now: Double) {
        guard window.parent != nil, !window.isDetached, motion.animation == nil else { return }
        placement.inlineOrigin = window.rootFrame
        window.detach()
        window.focus()
        let s = display.screenSize
        animate(to: Rect(x: 0, y: 0, width: s.width, height: s.height), now: now) { [self] in needsRedraw = true }
    }

    /// Shrinks a detached view back into its place in the host window.
    func returnInline(now: Double) {
        guard window.isDetached, motion.animation == nil else { return }
        let target = placement.inlineOrigin ?? window.rootFrame
        animate(to: target, now: now) { [self] in
            window.reattach()
            needsRedraw = true
        }
    }

    /// The screen was resized or turned: relayout, and tell the view when the orientation
    /// (landscape or portrait) changed, as rotation notifications do on a phone.
    func screenChanged(width: Int, height: Int) {
        let portrait = height > width
        let turned = portrait != placement.portrait
        placement.portrait = portrait
        let v = view
        if turned, let v { v.notify { $0.mediaViewWillRotate(v) } }
        if let v, isMinimized {
            // A place kept on a layout that is gone no longer applies; back to the corner.
            if let t = placement.thumbnail, ThumbnailSnap.inside(t, freeArea) != t {
                placement.thumbnail = nil
            }
            setFrame(thumbnailFrame(for: v))
        } else if placement.wantsFullscreen && !window.isEmbedded {
            window.setFullscreen(true)
        }
        needsRedraw = true
        if turned, let v { v.notify { $0.mediaViewDidRotate(v) } }
    }

    func toggleFullscreen() {
        guard !window.isEmbedded, !isMinimized, motion.animation == nil else { return }
        placement.wantsFullscreen = !window.isFullscreen
        if window.isFullscreen {
            let w = placement.windowed
            window.setFullscreen(false, restore: (w.x, w.y, w.width, w.height))
        } else {
            placement.windowed = windowFrame
            window.setFullscreen(true)
        }
        needsRedraw = true
    }
}
