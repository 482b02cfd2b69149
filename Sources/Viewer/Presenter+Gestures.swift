import Dispatch
import FoundationEssentials
import Glibc
import Playback
import Windowing

/// The signature gestures: drag down to shrink into the bottom-right thumbnail, drag the
/// thumbnail right to throw it away, or (in `.dismiss` mode) drag down to dismiss.
extension Presenter {
    /// What a left-button drag is doing.
    enum Drag {
        case minimize(startedMinimized: Bool, progress: Double)
        case thumbnailAway(dx: Int)
        case dismissDown(dy: Int)
    }

    /// A frame animation of the window (snap, slide out), advanced by the main loop.
    struct Animation {
        var from: Rect
        var to: Rect
        var start: Double
        var duration: Double
        var fade: (from: Double, to: Double)
        var done: @MainActor () -> Void
    }

    /// The layout for the current view and screen.
    /// The layout for the current view on the monitor that holds the window's centre.
    func layout(for v: MediaView) -> ThumbnailLayout {
        let m = display.monitor(containingX: window.x + window.width / 2, y: window.y + window.height / 2)
        return ThumbnailLayout(screenWidth: m.width, screenHeight: m.height, widthRatio: v.minimizedWidthRatio,
                               aspectRatio: v.minimizedAspectRatio, bottomBuffer: v.bottomBuffer,
                               originX: m.x, originY: m.y)
    }

    var windowFrame: Rect { Rect(x: window.x, y: window.y, width: window.width, height: window.height) }

    /// The frame the view has when presented (not minimized).
    var presentedFrame: Rect {
        if !wantsFullscreen {
            return Rect(x: windowedGeometry.x, y: windowedGeometry.y, width: windowedGeometry.width,
                        height: windowedGeometry.height)
        }
        return layout(for: queue.current ?? MediaView()).fullscreenFrame
    }

    /// A left-button motion with the button held: start or continue a drag.
    func dragMoved(rootX: Int, rootY: Int, now: Double) {
        guard let p = press, let v = queue.current, animation == nil, !window.isEmbedded else { return }
        let dx = rootX - p.rootX, dy = rootY - p.rootY
        motionSamples.append((rootY, now))
        if motionSamples.count > 8 { motionSamples.removeFirst() }
        if drag == nil {
            guard abs(dx) > 6 || abs(dy) > 6 else { return }
            if isMinimized {
                if dx > abs(dy) {
                    drag = .thumbnailAway(dx: 0)
                    v.notify { $0.willChangeDismissing(for: v) }
                } else if v.swipeMode == .minimize {
                    drag = .minimize(startedMinimized: true, progress: 1)
                    v.notify { $0.willChangeMinimization(for: v) }
                }
            } else if dy > abs(dx) {
                switch v.swipeMode {
                case .minimize:
                    dragStart = windowFrame
                    window.setFloating(true)
                    drag = .minimize(startedMinimized: false, progress: 0)
                    v.notify { $0.willChangeMinimization(for: v) }
                case .dismiss:
                    dragStart = windowFrame
                    window.setFloating(true, decorated: false)
                    drag = .dismissDown(dy: 0)
                    v.notify { $0.willChangeDismissing(for: v) }
                case .none:
                    break
                }
            }
            guard drag != nil else { return }
            dragNotifiedChange = false
        }
        let l = layout(for: v)
        switch drag {
        case .minimize(let started, _):
            let prog = l.progress(dragDY: dy, startedMinimized: started, from: started ? nil : dragStart)
            drag = .minimize(startedMinimized: started, progress: prog)
            setFrame(l.frame(progress: prog, from: started ? presentedFrame : dragStart))
            overlayOpacity = 1 - prog
            if !dragNotifiedChange { dragNotifiedChange = true; v.notify { $0.didChangeMinimization(for: v) } }
            v.notify { $0.mediaView(v, didChangeOffset: prog) }
        case .thumbnailAway:
            let d = max(0, dx)
            drag = .thumbnailAway(dx: d)
            let m = l.minimizedFrame
            setFrame(Rect(x: m.x + d, y: m.y, width: m.width, height: m.height))
            let frac = min(1, Double(d) / Double(max(1, m.width)))
            contentOpacity = 1 - frac
            v.duckVolume(1 - frac)
            if !dragNotifiedChange { dragNotifiedChange = true; v.notify { $0.didChangeDismissing(for: v) } }
            v.notify { $0.mediaView(v, didChangeOffset: frac) }
        case .dismissDown:
            let d = max(0, dy)
            drag = .dismissDown(dy: d)
            let s = dragStart ?? presentedFrame
            setFrame(Rect(x: s.x, y: s.y + d, width: s.width, height: s.height))
            let frac = min(1, Double(d) / Double(max(1, l.screenHeight)))
            v.duckVolume(1 - frac)
            overlayOpacity = 1 - frac
            if !dragNotifiedChange { dragNotifiedChange = true; v.notify { $0.didChangeDismissing(for: v) } }
            v.notify { $0.mediaView(v, didChangeOffset: frac) }
        case nil:
            break
        }
        needsRedraw = true
    }

    /// The left button went up after a drag: settle by the thresholds, animated.
    func dragEnded(now: Double) -> Bool {
        guard let d = drag, let v = queue.current else { return false }
        drag = nil
        let l = layout(for: v)
        switch d {
        case .minimize(let started, let prog):
            let toMin = ThumbnailLayout.settlesMinimized(progress: prog, startedMinimized: started)
            v.notify { $0.willEndMinimizing(for: v, atMinimizedState: toMin) }
            animate(to: toMin ? l.minimizedFrame : presentedFrame, now: now) { [self] in
                finishMinimizing(v, minimized: toMin)
            }
        case .thumbnailAway(let dx):
            let away = l.dismissesThumbnail(dragDX: dx)
            v.notify { $0.willEndDismissing(for: v, withDismissal: away) }
            let m = l.minimizedFrame
            let target = away ? Rect(x: l.originX + l.screenWidth, y: m.y, width: m.width, height: m.height) : m
            animate(to: target, now: now, fadeTo: away ? 0 : 1) { [self] in
                finishDismissing(v, dismissed: away)
            }
        case .dismissDown(let dy):
            let away = l.dismissesDown(dragDY: dy, velocity: downwardVelocity())
            v.notify { $0.willEndDismissing(for: v, withDismissal: away) }
            let s = dragStart ?? presentedFrame
            let target = away ? Rect(x: s.x, y: l.originY + l.screenHeight, width: s.width, height: s.height) : s
            animate(to: target, now: now, fadeTo: away ? 0 : 1) { [self] in
                finishDismissing(v, dismissed: away)
            }
        }
        return true
    }

    /// Minimizes or restores without a drag (keys, a click on the thumbnail), with the same
    /// events as the gesture.
    func setMinimized(_ on: Bool, now: Double) {
        guard let v = queue.current, on != isMinimized, animation == nil, drag == nil, !window.isEmbedded else { return }
        v.notify { $0.willChangeMinimization(for: v) }
        if on {
            dragStart = windowFrame
            window.setFloating(true)
        }
        v.notify { $0.didChangeMinimization(for: v) }
        v.notify { $0.willEndMinimizing(for: v, atMinimizedState: on) }
        let l = layout(for: v)
        animate(to: on ? l.minimizedFrame : presentedFrame, now: now) { [self] in
            finishMinimizing(v, minimized: on)
        }
    }

    private func finishMinimizing(_ v: MediaView, minimized: Bool) {
        isMinimized = minimized
        v.player?.setLowPower(minimized)
        overlayOpacity = minimized ? 0 : 1
        if !minimized { restorePresentedState() }
        surface.compact()
        v.notify { $0.didEndMinimizing(for: v, atMinimizedState: minimized) }
        needsRedraw = true
    }

    private func finishDismissing(_ v: MediaView, dismissed: Bool) {
        v.duckVolume(1)
        contentOpacity = 1
        v.notify { $0.didEndDismissing(for: v, withDismissal: dismissed) }
        if dismissed {
            let wasMinimized = isMinimized
            queue.dismissCurrent(animated: false)
            // The next item, if any, appears where the last one was presented.
            if queue.current != nil {
                if wasMinimized {
                    setFrame(layout(for: queue.current!).minimizedFrame)
                } else {
                    isMinimized = false
                    restorePresentedState()
                }
            }
        } else if !isMinimized {
            restorePresentedState()
        }
        overlayOpacity = isMinimized ? 0 : 1
        needsRedraw = true
    }

    /// Back to fullscreen (or the windowed frame) with the window manager's states.
    func restorePresentedState() {
        window.setFloating(false)
        let f = presentedFrame
        if !wantsFullscreen {
            window.setGeometry(x: f.x, y: f.y, width: f.width, height: f.height)
        } else {
            window.setFullscreen(true)
        }
        dragStart = nil
        needsRedraw = true
    }

    func animate(to target: Rect, now: Double, fadeTo: Double? = nil, done: @escaping @MainActor () -> Void) {
        animation = Animation(from: windowFrame, to: target, start: now, duration: 0.25,
                              fade: (contentOpacity, fadeTo ?? contentOpacity), done: done)
        loop.wake()
    }

    /// Advances the running animation; returns when to look again.
    func stepAnimation(now: Double) -> Double? {
        guard let a = animation else { return nil }
        let t = min(1, (now - a.start) / a.duration)
        // Ease out: fast at first, gentle at the end, as a thrown window settles.
        let e = 1 - (1 - t) * (1 - t)
        setFrame(ThumbnailLayout.interpolate(a.from, a.to, e))
        contentOpacity = a.fade.from + (a.fade.to - a.fade.from) * e
        needsRedraw = true
        if t >= 1 {
            animation = nil
            a.done()
            return 0
        }
        return 1.0 / 60
    }

    func setFrame(_ r: Rect) {
        window.setGeometry(x: r.x, y: r.y, width: r.width, height: r.height)
        window.raise()
    }

    /// Pixels per second of the pointer's recent downward motion.
    private func downwardVelocity() -> Double {
        guard let first = motionSamples.first, let last = motionSamples.last, last.t > first.t else { return 0 }
        return Double(last.y - first.y) / (last.t - first.t)
    }
}

extension MediaView {
    /// Lowers the sound while a gesture throws the view away (1: as set, 0: silent), without
    /// touching the volume the user chose.
    func duckVolume(_ factor: Double) {
        player?.setVolume(playerOptions.volume * max(0, min(1, factor)), muted: playerOptions.muted)
    }
}
