import Dispatch
import FoundationEssentials
import Glibc
import Playback
import Windowing

/// Events in, commands out: keys and mouse become `PlayerCommand`s through the binding
/// table, so a gesture and its key do exactly the same thing.
extension Presenter {
    func handle(_ e: WindowEvent) {
        let now = MonotonicClock.seconds()
        switch e {
        case .key(let k):
            KeyboardSpy.shared.dispatch(k)
            guard k.isPress, let name = k.name else { return }
            if let c = options.bindings.command(for: name) { execute(c) }
        case .button(let b):
            handleButton(b, now: now)
        case .motion(let x, let y, let rx, let ry, let state, _):
            pointer = (x, y)
            if state & 0x100 != 0, press != nil, scrubbing, let v = queue.current, let hit = trackHit(v) {
                // Dragging along the track scrubs.
                v.seek(toFraction: hit.fraction)
                showControls(now: now)
            } else if state & 0x100 != 0, press != nil {
                // Button1Mask: a drag. Root coordinates, since the window itself moves.
                dragMoved(rootX: rx, rootY: ry, now: now)
            } else {
                showControls(now: now)
            }
        case .configured:
            needsRedraw = true
        case .exposed, .mapped(true):
            needsRedraw = true
        case .closeRequested:
            quitRequested = true
        case .focus(let isIn, let w):
            KeyboardSpy.shared.dispatchFocus(isIn: isIn, window: w)
        case .screenChanged(let w, let h):
            screenChanged(width: w, height: h)
        case .pointerInside, .mapped(false):
            needsRedraw = true
        }
    }

    func showControls(now: Double) {
        let was = controlsVisible(now: now)
        controlsUntil = now + 2.5
        if !was { needsRedraw = true }
        needsRedraw = needsRedraw || trackHit(queue.current)?.hover == true
    }

    private func handleButton(_ b: ButtonEvent, now: Double) {
        switch b.button {
        case 4, 5:
            if b.isPress, let name = KeyName.name(button: b.button, state: b.modifiers),
               let c = options.bindings.command(for: name) { execute(c) }
        case 1:
            if b.isPress {
                pointer = (b.x, b.y)
                scrubbing = controlsVisible(now: now) && trackHit(queue.current)?.inside == true
                press = (b.x, b.y, b.rootX, b.rootY, now)
                motionSamples = [(b.rootY, now)]
                return
            }
            defer { press = nil; scrubbing = false }
            if scrubbing, let p = press, abs(b.rootX - p.rootX) >= 6 || abs(b.rootY - p.rootY) >= 6 { return }
            if let v = queue.current, v.isPreviewing {
                // Releasing the held button ends the preview; it is not a click.
                v.stopPreview()
                needsRedraw = true
                return
            }
            if dragEnded(now: now) { return }
            guard let p = press, abs(b.rootX - p.rootX) < 6, abs(b.rootY - p.rootY) < 6 else { return }
            if isMinimized {
                // A click on the thumbnail brings the view back.
                setMinimized(false, now: now)
                return
            }
            click(x: b.x, y: b.y, time: b.time, now: now)
        default:
            if b.isPress, let name = KeyName.name(button: b.button, state: b.modifiers),
               let c = options.bindings.command(for: name) { execute(c) }
        }
    }

    /// Press-and-hold (0.25 s, no movement) on a video that is not playing shows its
    /// preview GIF. Returns when to look again.
    func checkHold(now: Double) -> Double? {
        guard let p = press, drag == nil, let v = queue.current, v.hasPreview, !v.isPreviewing,
              v.info?.kind == .video, !v.isPlaying else { return nil }
        let due = p.time + 0.25
        if now < due { return due - now }
        if v.startPreview() { needsRedraw = true }
        return nil
    }

    /// A left click without movement: seek on the track, the title's or details' callback,
    /// fullscreen on a double click, else play/pause (the seed's tap).
    private func click(x: Int, y: Int, time: UInt, now: Double) {
        defer { lastClick = (time, x, y) }
        if let last = lastClick, time &- last.time < 400, abs(last.x - x) < 8, abs(last.y - y) < 8 {
            lastClick = nil
            if let c = options.bindings.command(for: "MBTN_LEFT_DBL") { execute(c) }
            return
        }
        guard let v = queue.current else { return }
        if window.isEmbedded && v.shouldDisplayFullscreen {
            // The seed's inline view: a tap presents it fullscreen, grown from its own rect.
            presentFromInline(now: now)
            return
        }
        showControls(now: now)
        if controlsVisible(now: now), let r = v.closeButtonRect(in: Rect(x: 0, y: 0, width: window.width, height: window.height)),
           r.contains(x: x, y: y) {
            queue.dismissCurrent()
            return
        }
        if let hit = trackHit(v), hit.inside {
            v.seek(toFraction: hit.fraction)
            needsRedraw = true
            return
        }
        if controlsVisible(now: now), v.title != nil || v.details != nil, y >= v.topBuffer, y < v.topBuffer + 68 {
            if y < v.topBuffer + 40 { v.notify { $0.handleTitleSelection(in: v) } }
            else if v.details != nil { v.notify { $0.handleDetailsSelection(in: v) } }
            return
        }
        if let c = options.bindings.command(for: "MBTN_LEFT") { execute(c) } else { v.togglePlay() }
        needsRedraw = true
    }

    /// Where the pointer is relative to the progress track.
    func trackHit(_ v: MediaView?) -> (inside: Bool, hover: Bool, fraction: Double)? {
        guard let v, !isMinimized else { return nil }
        let bounds = Rect(x: 0, y: 0, width: window.width, height: window.height)
        guard let l = v.trackLayout(in: bounds) else { return nil }
        let inside = l.band.contains(x: pointer.x, y: pointer.y)
        return (inside, inside, Indicators.progressFraction(atX: pointer.x, in: l.bar))
    }

    /// Carries out one command on the current view or the queue.
    func execute(_ c: PlayerCommand) {
        let v = queue.current
        let now = MonotonicClock.seconds()
        needsRedraw = true
        switch c {
        case .togglePause: v?.togglePlay()
        case .seek(let s): v?.seek(by: s); showControls(now: now)
        case .seekAbsolutePercent(let p): v?.seek(toFraction: p / 100); showControls(now: now)
        case .volume(let d): if let v { v.volume = v.volume + Double(d) / 100 }
        case .toggleMute: if let v { v.isMuted.toggle() }
        case .next: queue.presentNext()
        case .previous: queue.presentPrevious()
        case .dismiss:
            if window.isDetached { returnInline(now: now) } else { queue.dismissCurrent() }
        case .toggleFullscreen:
            if window.isDetached { returnInline(now: now) } else if window.isEmbedded { presentFromInline(now: now) }
            else { toggleFullscreen() }
        case .toggleLoop: if let v { v.allowLooping.toggle() }
        case .rotate(let deg):
            if let v {
                v.notify { $0.mediaViewWillRotate(v) }
                v.userRotation = ((v.userRotation + deg) % 360 + 360) % 360
                v.notify { $0.mediaViewDidRotate(v) }
            }
        case .toggleTrack: if let v { v.shouldShowTrack.toggle() }
        case .toggleDetails:
            controlsUntil = controlsVisible(now: now) ? 0 : now + 3600
        case .zoom(let d): v?.zoom(by: d)
        case .zoomReset: v?.toggleFitNative()
        case .pan(let dx, let dy): v?.pan(dx: dx, dy: dy)
        case .minimize: if v?.swipeMode != MediaView.SwipeMode.none { setMinimized(true, now: now) }
        case .restore: setMinimized(false, now: now)
        case .quit: quitRequested = true
        }
    }

    /// Grows an embedded view from its rectangle to the whole screen.
    func presentFromInline(now: Double) {
        guard window.parent != nil, !window.isDetached, animation == nil else { return }
        let origin = window.rootFrame
        inlineOrigin = origin
        window.detach()
        window.focus()
        let s = display.screenSize
        animate(to: Rect(x: 0, y: 0, width: s.width, height: s.height), now: now) { [self] in needsRedraw = true }
    }

    /// Shrinks a detached view back into its place in the host window.
    func returnInline(now: Double) {
        guard window.isDetached, animation == nil else { return }
        let target = inlineOrigin ?? window.rootFrame
        animate(to: target, now: now) { [self] in
            window.reattach()
            needsRedraw = true
        }
    }

    /// The screen was resized or turned: relayout, and tell the view when the orientation
    /// (landscape or portrait) changed, as the seed's rotation notifications do.
    func screenChanged(width: Int, height: Int) {
        let portrait = height > width
        let turned = portrait != lastPortrait
        lastPortrait = portrait
        let v = queue.current
        if turned, let v { v.notify { $0.mediaViewWillRotate(v) } }
        if let v, isMinimized {
            setFrame(layout(for: v).minimizedFrame)
        } else if wantsFullscreen && !window.isEmbedded {
            window.setFullscreen(true)
        }
        needsRedraw = true
        if turned, let v { v.notify { $0.mediaViewDidRotate(v) } }
    }

    func toggleFullscreen() {
        guard !window.isEmbedded, !isMinimized, animation == nil else { return }
        wantsFullscreen = !window.isFullscreen
        if window.isFullscreen {
            window.setFullscreen(false, restore: windowedGeometry)
        } else {
            windowedGeometry = (window.x, window.y, window.width, window.height)
            window.setFullscreen(true)
        }
        needsRedraw = true
    }
}
