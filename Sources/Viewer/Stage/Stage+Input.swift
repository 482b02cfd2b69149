import MediaCore
import Playback
import Windowing

/// Events in, commands out: keys and buttons become `PlayerCommand`s through the binding
/// table and go to the router, so a gesture and its key do exactly the same thing.
extension Stage {
    /// What the user's keys and buttons do on this stage, and where the keyboard is.
    struct Input {
        /// Keys and buttons to commands.
        var bindings: InputBindings
        /// What the left button is doing.
        var gestures = Gestures()
        /// Whether the window has the keyboard focus, and what losing it does.
        var focus: FocusWatch
        /// The server time of the user's last key press or click (0: none yet, or only keys
        /// another program sent): what a request for the focus carries.
        var lastTime: UInt = 0
    }

    func handle(_ e: WindowEvent, from windowID: UInt) {
        if windowID == window.parent {
            // The host window changed size: an embedded view fills it.
            if case .configured(_, _, let pw, let ph) = e, window.isEmbedded {
                window.setGeometry(x: 0, y: 0, width: pw, height: ph)
                needsRedraw = true
            }
            return
        }
        let now = MonotonicClock.seconds()
        switch e {
        case .key(let k):
            KeyboardSpy.shared.dispatch(k)
            take(k)
        case .button(let b):
            handleButton(b, window: windowID, now: now)
        case .motion(let x, let y, let rx, let ry, let state, _):
            controls.pointer = (x, y)
            controls.movedAt = now
            if isMinimized { controls.pointerInside = true; needsRedraw = true }
            let held = state & Gestures.leftButtonHeld != 0 && input.gestures.press != nil
            if held, input.gestures.scrubbing, let v = view, let hit = trackHit() {
                // Dragging along the track scrubs.
                v.seek(toFraction: hit.fraction)
                showControls(now: now)
            } else if held {
                // A drag. Root coordinates, since the window itself moves.
                dragMoved(rootX: rx, rootY: ry, now: now)
            } else {
                showControls(now: now)
                // Perhaps on its way to the track: previews' worker starts (~0.1 s) now, not at the first hover.
                view?.prepareTrackPreviews()
            }
        case .pointerInside(let inside):
            controls.pointerInside = inside
            needsRedraw = true
        case .configured:
            noteWindowManagerMove()
            needsRedraw = true
        case .exposed, .mapped:
            // What the window showed is gone: the next frame is sent whole.
            surface.invalidate()
            needsRedraw = true
        case .closeRequested:
            router.execute(.quit, on: self)
        case .focus(let isIn, let w):
            KeyboardSpy.shared.dispatchFocus(isIn: isIn, window: w)
            focusChanged(isIn: isIn, now: now)
        case .screenChanged(let w, let h):
            screenChanged(width: w, height: h)
        case .dropped(let d):
            router.queue.take(d)
        case .dropFailed(let why):
            router.queue.presentation.onMessage?("the drop did not arrive: \(why)")
        case .pasted(let text, let isURIList):
            router.queue.takePaste(text, isURIList: isURIList)
        case .pasteFailed(let why):
            router.queue.presentation.onMessage?("nothing pasted: \(why)")
        }
    }

    private func handleButton(_ b: ButtonEvent, window id: UInt, now: Double) {
        guard b.button == 1 else {
            if b.isPress, isMinimized, b.button == 4 || b.button == 5, b.modifiers & Gestures.ctrlHeld != 0 {
                report(b, window: id, .thumbnailResize)
                resizeThumbnail(larger: b.button == 4)
                return
            }
            if b.isPress, isMinimized, b.button == 4 || b.button == 5, let v = view, thumbnailVolumeHit(x: b.x, y: b.y) {
                // The wheel over the speaker or its slider turns the sound up or down.
                report(b, window: id, .thumbnailVolume)
                v.isMuted = false
                v.volume += b.button == 4 ? 0.05 : -0.05
                needsRedraw = true
                return
            }
            take(b, window: id)
            return
        }
        report(b, window: id, .gesture)
        if b.isPress {
            controls.pointer = (b.x, b.y)
            input.gestures.pressed(at: b, now: now, onTrack: controlsVisible(now: now) && trackHit()?.inside == true)
            return
        }
        defer { input.gestures.released() }
        guard let p = input.gestures.press else { return }
        let still = abs(b.rootX - p.rootX) < 6 && abs(b.rootY - p.rootY) < 6
        if input.gestures.scrubbing && !still { return }
        if let v = view, v.isPreviewing {
            // Releasing the held button ends the preview; it is not a click.
            v.stopPreview()
            needsRedraw = true
            return
        }
        if dragEnded(now: now) || !still { return }
        if isMinimized {
            clickThumbnail(x: b.x, y: b.y)
            return
        }
        click(x: b.x, y: b.y, time: b.time, now: now)
    }

    /// Press-and-hold (0.25 s, no movement) on a video that is not playing shows its
    /// preview GIF. Returns when to look again.
    func checkHold(now: Double) -> Double? {
        guard let p = input.gestures.press, input.gestures.drag == nil, let v = view, v.isPrepared, v.hasPreview,
              !v.isPreviewing, v.info?.kind == .video, !v.isPlaying else { return nil }
        let due = p.time + 0.25
        if now < due { return due - now }
        if v.startPreview() { needsRedraw = true }
        return nil
    }

    /// A left click without movement: the close button, the track, the title's or
    /// details' callback, fullscreen on a double click, else play/pause.
    private func click(x: Int, y: Int, time: UInt, now: Double) {
        // Before the double click: two quick clicks on "next" are two steps, not fullscreen.
        if let side = navigationButtons(now: now)?.hit(x: x, y: y) {
            router.execute(side.command, on: self)
            showControls(now: now)
            return
        }
        if input.gestures.isDoubleClick(x: x, y: y, time: time) {
            if let name = KeyName.name(button: 1, state: 0, doubleClick: true), let c = command(for: name) {
                router.execute(c, on: self)
            }
            return
        }
        guard let v = view else { return }
        if window.isEmbedded && v.shouldDisplayFullscreen {
            // An inline view: a click presents it fullscreen, grown from its own rectangle.
            presentFromInline(now: now)
            return
        }
        showControls(now: now)
        if controlsVisible(now: now), let r = v.closeButtonRect(in: bounds), r.contains(x: x, y: y) {
            router.execute(.dismiss, on: self)
            return
        }
        if let hit = trackHit(), hit.inside {
            v.seek(toFraction: hit.fraction)
            needsRedraw = true
            return
        }
        let top = v.topBuffer.pixels, sc = v.currentInterfaceScale
        if controlsVisible(now: now), v.title != nil || v.details != nil, y >= top, y < top + sc.px(68) {
            if y < top + sc.px(40) { v.notify { $0.handleTitleSelection(in: v) } }
            else if v.details != nil { v.notify { $0.handleDetailsSelection(in: v) } }
            return
        }
        if let name = KeyName.name(button: 1, state: 0), let c = command(for: name) {
            router.execute(c, on: self)
        } else {
            v.togglePlay()
        }
        needsRedraw = true
    }

    /// A click on the thumbnail: its controls when they show, else (and anywhere off them)
    /// back to full size.
    private func clickThumbnail(x: Int, y: Int) {
        let hit = controls.pointerInside ? ThumbnailControls(bounds: bounds, scale: view?.currentInterfaceScale ?? .one,
                                 sound: view?.info?.hasAudio ?? false).hit(x: x, y: y) : .elsewhere
        switch hit {
        case .playPause: view?.togglePlay()
        case .skip(let seconds): view?.seek(by: seconds)
        case .mute: view?.isMuted.toggle()
        case .volume(let level):
            view?.isMuted = false
            view?.volume = level
        case .close: router.execute(.dismiss, on: self)
        case .progress(let f): view?.seek(toFraction: f)
        case .restore, .elsewhere: setMinimized(false, animated: true)
        }
        needsRedraw = true
    }

    /// Whether (x, y) is on the thumbnail's speaker or volume slider.
    private func thumbnailVolumeHit(x: Int, y: Int) -> Bool {
        switch ThumbnailControls(bounds: bounds, scale: view?.currentInterfaceScale ?? .one,
                                 sound: view?.info?.hasAudio ?? false).hit(x: x, y: y) {
        case .mute, .volume: return true
        default: return false
        }
    }

    /// The command for a key or button name. On a still, or an item that could not be
    /// shown, there is nothing to seek: the `{still}` bindings (arrows, Page Up/Down, Space,
    /// Backspace, the wheel) step through the queue instead, as in a photo viewer. A still
    /// still opening counts as a still (by its name), so quick presses keep stepping.
    func command(for name: String) -> PlayerCommand? {
        guard let v = view, v.failure != nil || !v.isPlayable else { return input.bindings.command(for: name) }
        return input.bindings.command(for: name, in: "still")
    }

    /// The previous and next buttons, when they show: on a still (or a failed item) at
    /// full size while the controls show.
    func navigationButtons(now: Double) -> NavigationButtons? {
        guard let v = view, !isMinimized, !window.isEmbedded, v.failure != nil || !v.isPlayable,
              controlsVisible(now: now) else { return nil }
        let q = router.queue
        let sides = (q.hasPrevious ? [NavigationButtons.Side.previous] : []) + (q.hasNext ? [.next] : [])
        guard !sides.isEmpty else { return nil }
        return NavigationButtons(bounds: bounds, scale: v.currentInterfaceScale, sides: sides)
    }

    /// Where the pointer is relative to the progress track.
    func trackHit() -> (inside: Bool, hover: Bool, fraction: Double)? {
        guard let v = view, !isMinimized, let l = v.trackLayout(in: bounds) else { return nil }
        let inside = l.band.contains(x: controls.pointer.x, y: controls.pointer.y)
        return (inside, inside, Indicators.progressFraction(atX: controls.pointer.x, in: l.bar,
                                                          hoverThickness: v.currentInterfaceScale.px(MediaSession.trackThickness.hover)))
    }
}
