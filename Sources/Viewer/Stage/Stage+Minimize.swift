import MediaCore
import Playback
import Windowing

/// The signature gestures: drag down to shrink into the bottom-right thumbnail, drag the
/// thumbnail right to throw it away, or (in `.dismiss` mode) drag down to dismiss; and the
/// same motions from keys and code, with the same delegate calls.
extension Stage {
    /// The thumbnail's geometry for `v` on the monitor that holds the window's centre,
    /// kept inside the work area the window manager leaves free of panels.
    func layout(for v: MediaView) -> ThumbnailLayout {
        let m = display.monitor(containingX: window.x + window.width / 2, y: window.y + window.height / 2)
        let free = display.workArea(within: m) ?? m
        return ThumbnailLayout(screenWidth: free.width, screenHeight: free.height, widthRatio: v.minimizedWidthRatio,
                               aspectRatio: v.minimizedAspectRatio.heightOverWidth,
                               bottomBuffer: v.bottomBuffer.pixels, originX: free.x, originY: free.y)
    }

    var windowFrame: Rect { Rect(x: window.x, y: window.y, width: window.width, height: window.height) }

    /// The frame the view has when presented (not minimized).
    var presentedFrame: Rect {
        if !placement.wantsFullscreen { return placement.windowed }
        let m = display.monitor(containingX: window.x + window.width / 2, y: window.y + window.height / 2)
        return m
    }

    /// A left-button motion with the button held: start or continue a drag.
    func dragMoved(rootX: Int, rootY: Int, now: Double) {
        guard let p = input.gestures.press, let v = view, motion.animation == nil, !window.isEmbedded else { return }
        let dx = rootX - p.rootX, dy = rootY - p.rootY
        input.gestures.sample(y: rootY, now: now)
        if input.gestures.drag == nil {
            guard abs(dx) > 6 || abs(dy) > 6 else { return }
            input.gestures.drag = startDrag(v, dx: dx, dy: dy)
            guard input.gestures.drag != nil else { return }
            input.gestures.notifiedChange = false
        }
        if case .move(let start) = input.gestures.drag {
            moveThumbnail(from: start, dx: dx, dy: dy)
            return
        }
        if case .resize(let start, let edges) = input.gestures.drag {
            resizeThumbnail(from: start, pulling: edges, dx: dx, dy: dy)
            return
        }
        if case .pan(let lastX, let lastY, _) = input.gestures.drag {
            v.pan(dx: rootX - lastX, dy: rootY - lastY)
            input.gestures.drag = .pan(lastX: rootX, lastY: rootY, undrawn: true)
            needsRedraw = true
            return
        }
        let l = layout(for: v)
        var offset = 0.0
        switch input.gestures.drag {
        case .minimize(let started, _):
            let prog = l.progress(dragDY: dy, startedMinimized: started, from: started ? nil : input.gestures.dragStart)
            input.gestures.drag = .minimize(startedMinimized: started, progress: prog)
            setFrame(l.frame(progress: prog, from: started ? presentedFrame : input.gestures.dragStart))
            motion.fade.overlay = 1 - prog
            offset = prog
        case .thumbnailAway:
            let d = max(0, dx)
            input.gestures.drag = .thumbnailAway(dx: d)
            let m = thumbnailFrame(for: v)
            setFrame(Rect(x: m.x + d, y: m.y, width: m.width, height: m.height))
            offset = min(1, Double(d) / Double(max(1, m.width)))
            motion.fade.content = 1 - offset
            v.duckVolume(1 - offset)
        case .dismissDown:
            let d = max(0, dy)
            input.gestures.drag = .dismissDown(dy: d)
            let s = input.gestures.dragStart ?? presentedFrame
            setFrame(Rect(x: s.x, y: s.y + d, width: s.width, height: s.height))
            offset = min(1, Double(d) / Double(max(1, l.screenHeight)))
            v.duckVolume(1 - offset)
            motion.fade.overlay = 1 - offset
        case .move, .resize, .pan, nil:
            break
        }
        if !input.gestures.notifiedChange {
            input.gestures.notifiedChange = true
            if case .minimize = input.gestures.drag { v.notify { $0.didChangeMinimization(for: v) } }
            else { v.notify { $0.didChangeDismissing(for: v) } }
        }
        v.reportOffset(offset)
        needsRedraw = true
    }

    /// Which drag a first motion starts, telling the delegate; nil when none applies.
    private func startDrag(_ v: MediaView, dx: Int, dy: Int) -> Gestures.Drag? {
        if isMinimized {
            if let p = input.gestures.press, p.modifiers & Gestures.altHeld != 0 {
                return .move(start: windowFrame)
            }
            if let p = input.gestures.press {
                let edges = ThumbnailSnap.edges(atX: p.x, y: p.y, width: window.width, height: window.height)
                if !edges.isEmpty { return .resize(start: windowFrame, edges: edges) }
            }
            if dx > abs(dy) {
                v.notify { $0.willChangeDismissing(for: v) }
                return .thumbnailAway(dx: 0)
            }
            guard v.swipeMode == .minimize, !isPinned else { return nil }
            v.notify { $0.willChangeMinimization(for: v) }
            return .minimize(startedMinimized: true, progress: 1)
        }
        if let p = input.gestures.press, v.overhangs(width: window.width, height: window.height) {
            return .pan(lastX: p.rootX, lastY: p.rootY, undrawn: false)
        }
        guard dy > abs(dx) else { return nil }
        switch v.swipeMode {
        case .minimize:
            input.gestures.dragStart = windowFrame
            window.setFloating(true)
            v.notify { $0.willChangeMinimization(for: v) }
            return .minimize(startedMinimized: false, progress: 0)
        case .dismiss:
            input.gestures.dragStart = windowFrame
            window.setFloating(true, decorated: false)
            v.notify { $0.willChangeDismissing(for: v) }
            return .dismissDown(dy: 0)
        case .none:
            return nil
        }
    }

    /// The left button went up after a drag: settle by the thresholds, animated.
    func dragEnded(now: Double) -> Bool {
        guard let d = input.gestures.drag, let v = view else { return false }
        input.gestures.drag = nil
        let l = layout(for: v)
        switch d {
        case .minimize(let started, let prog):
            let toMin = ThumbnailLayout.settlesMinimized(progress: prog, startedMinimized: started)
            v.notify { $0.willEndMinimizing(for: v, atMinimizedState: toMin) }
            animate(to: toMin ? thumbnailFrame(for: v) : presentedFrame, now: now, offset: (prog, toMin ? 1 : 0)) { [self] in
                finishMinimizing(v, minimized: toMin)
            }
        case .thumbnailAway(let dx):
            let away = l.dismissesThumbnail(dragDX: dx)
            v.notify { $0.willEndDismissing(for: v, withDismissal: away) }
            let m = thumbnailFrame(for: v)
            let target = away ? Rect(x: l.originX + l.screenWidth, y: m.y, width: m.width, height: m.height) : m
            let from = min(1, Double(dx) / Double(max(1, m.width)))
            animate(to: target, now: now, fadeTo: away ? 0 : 1, offset: (from, away ? 1 : 0)) { [self] in
                finishDismissing(v, dismissed: away)
            }
        case .move:
            settleThumbnail(v, now: now)
        case .resize:
            keepThumbnail(windowFrame)
        case .pan:
            break
        case .dismissDown(let dy):
            let away = l.dismissesDown(dragDY: dy, velocity: input.gestures.downwardVelocity)
            v.notify { $0.willEndDismissing(for: v, withDismissal: away) }
            let s = input.gestures.dragStart ?? presentedFrame
            let target = away ? Rect(x: s.x, y: l.originY + l.screenHeight, width: s.width, height: s.height) : s
            let from = min(1, Double(dy) / Double(max(1, l.screenHeight)))
            animate(to: target, now: now, fadeTo: away ? 0 : 1, offset: (from, away ? 1 : 0)) { [self] in
                finishDismissing(v, dismissed: away)
            }
        }
        return true
    }

    /// Minimizes or restores without a drag (keys, a click on the thumbnail, code), with the
    /// same delegate calls as the gesture.
    func setMinimized(_ on: Bool, animated: Bool) {
        if isPinned {
            // A pinned thumbnail has no full-size window of its own: it takes the queue's.
            if !on { router.restorePinned(self) }
            return
        }
        guard let v = view, on != isMinimized, isAtRest, !window.isEmbedded,
              !on || v.swipeMode != .none else { return }
        v.notify { $0.willChangeMinimization(for: v) }
        if on {
            input.gestures.dragStart = windowFrame
            window.setFloating(true)
        }
        v.notify { $0.didChangeMinimization(for: v) }
        v.notify { $0.willEndMinimizing(for: v, atMinimizedState: on) }
        let target = on ? thumbnailFrame(for: v) : presentedFrame
        let offset = (on ? 0.0 : 1.0, on ? 1.0 : 0.0)
        if animated {
            animate(to: target, now: MonotonicClock.seconds(), offset: offset) { [self] in finishMinimizing(v, minimized: on) }
        } else {
            setFrame(target)
            v.reportOffset(offset.1)
            finishMinimizing(v, minimized: on)
        }
    }

    private func finishMinimizing(_ v: MediaView, minimized: Bool) {
        isMinimized = minimized
        tellWindowManager(minimized: minimized, view: v)
        // A window manager that only floated the window partway through the motion may have
        // kept an earlier size: the thumbnail's frame is asked for once more.
        if minimized {
            setFrame(thumbnailFrame(for: v))
            checkThumbnailGranted(v)
        }
        v.setLowPower(minimized)
        motion.fade.overlay = minimized ? 0 : 1
        if !minimized {
            restorePresentedState()
            takeFocus()
        }
        surface.compact()
        v.notify { $0.didEndMinimizing(for: v, atMinimizedState: minimized) }
        needsRedraw = true
    }

    private func finishDismissing(_ v: MediaView, dismissed: Bool) {
        v.duckVolume(1)
        motion.fade.content = 1
        v.notify { $0.didEndDismissing(for: v, withDismissal: dismissed) }
        if dismissed {
            let wasMinimized = isMinimized
            router.dismissCurrent(from: self)
            // The next item, if any, appears where the last one was presented.
            if let next = view {
                if wasMinimized {
                    setFrame(thumbnailFrame(for: next))
                } else {
                    isMinimized = false
                    restorePresentedState()
                }
            }
        } else if !isMinimized {
            restorePresentedState()
        }
        motion.fade.overlay = isMinimized ? 0 : 1
        needsRedraw = true
    }

    /// Back to fullscreen (or the windowed frame) with the window manager's states.
    func restorePresentedState() {
        window.setFloating(false)
        let f = presentedFrame
        if !placement.wantsFullscreen {
            window.setGeometry(x: f.x, y: f.y, width: f.width, height: f.height)
        } else {
            window.setFullscreen(true)
        }
        input.gestures.dragStart = nil
        needsRedraw = true
    }

    /// Moves the window to `target` over a quarter second; `offset` runs from its first to
    /// its second value as `didChangeOffset`, ending exactly there.
    func animate(to target: Rect, now: Double, fadeTo: Double? = nil, offset: (Double, Double)? = nil,
                 done: @escaping @MainActor () -> Void) {
        let v = view
        let report: ((Double) -> Void)? = offset.map { o in { [weak v] e in v?.reportOffset(o.0 + (o.1 - o.0) * e) } }
        motion.animation = StageAnimation(from: windowFrame, to: target, start: now, duration: 0.25,
                                   fade: (motion.fade.content, fadeTo ?? motion.fade.content), offset: report, done: done)
        loop.wake()
    }

    /// Advances the running animation; returns when to look again.
    func stepAnimation(now: Double) -> Double? {
        guard let a = motion.animation else { return nil }
        let t = min(1, (now - a.start) / a.duration)
        // Ease out: fast at first, gentle at the end, as a thrown window settles.
        let e = 1 - (1 - t) * (1 - t)
        setFrame(ThumbnailLayout.interpolate(a.from, a.to, e))
        motion.fade.content = a.fade.from + (a.fade.to - a.fade.from) * e
        a.offset?(e)
        needsRedraw = true
        if t >= 1 {
            motion.animation = nil
            a.done()
            return 0
        }
        return 1.0 / 60
    }

    func setFrame(_ r: Rect) {
        window.setGeometry(x: r.x, y: r.y, width: r.width, height: r.height)
        window.raise()
    }
}
