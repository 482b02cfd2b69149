import MediaCore
import Playback
import Windowing

/// One X window that shows one view at a time: fullscreen, windowed, minimized into the
/// corner thumbnail, or embedded in a host window.
///
/// A newcomer follows a frame from the decoder to the screen here: the loop calls `tick`,
/// which asks the view for its next frame, and `draw`, which has the view scale it into the
/// window's shared-memory surface and blits that. The stage never touches the view's
/// session: it tells the view the window's facts when it shows it, and drives it through
/// the view's stage interface (`MediaView+Stage.swift`).
@MainActor
final class Stage {
    let display: XDisplay
    let loop: EventLoop
    let window: XWindow
    let surface: Surface
    unowned let router: CommandRouter
    /// The view on screen.
    private(set) var view: MediaView?
    /// Shrunk into the corner thumbnail.
    var isMinimized = false
    /// Where the window goes when presented, and where an embedded view came from.
    var placement: Placement
    /// When the controls hide again, and where the pointer is.
    var controls = Controls()
    /// The user's keys, buttons and keyboard focus here.
    var input: Input
    /// The window moving, and the overlays and picture fading meanwhile.
    var motion = Motion()
    var needsRedraw = true
    /// The draws into the window, and the view just shown until its first picture is one.
    var drawing = Drawing()
    /// Where one-line warnings go.
    let warn: ((String) -> Void)?
    /// The panel that says what the file is (`cycle info`).
    var infoPanel = InfoPanel()

    /// Where the window goes when presented.
    struct Placement {
        /// Fullscreen is what the user wants when not minimized (false after `f` in a window).
        var wantsFullscreen: Bool
        /// The frame of a windowed (not fullscreen) stage.
        var windowed: Rect
        /// Where an embedded view was before it grew to fullscreen.
        var inlineOrigin: Rect?
        /// The screen's orientation last seen, to tell rotations from resizes.
        var portrait: Bool
        /// Where the user moved or resized the thumbnail to, on the current monitor layout.
        var thumbnail: Rect?
        /// Where that place is kept between runs.
        var memory: ThumbnailMemory?
        /// A pinned thumbnail: it plays on while the queue moves on in another window.
        var pinned = false
        /// The user was told the window manager would not make the thumbnail small.
        var warnedRefusal = false
    }

    /// Pointer and timing of the controls (track, title, close button).
    struct Controls {
        /// Controls stay visible until then (pointer moved, key pressed).
        var until: Double = 0
        var pointer: (x: Int, y: Int) = (0, 0)
        /// When the pointer last moved: where a track preview's wait starts.
        var movedAt: Double = 0
        /// The pointer is over the window (a thumbnail shows its controls then).
        var pointerInside = false
        /// When the pointer hides where it may.
        var pointerHiding = PointerHiding.withControls
    }

    /// Overlay and picture opacity during gestures.
    struct Fade {
        var overlay: Double = 1
        var content: Double = 1
    }

    /// The window on the move: an animation between two frames, or a drag's fade of the
    /// overlays and the picture. While either runs, the controls stay hidden.
    struct Motion {
        /// The window moving between two frames (snap, slide out, grow from its place).
        var animation: StageAnimation?
        /// How opaque the overlays and the picture are while a gesture runs.
        var fade = Fade()
    }

    /// A window for the queue (or, with `takesFocus` false, a pinned thumbnail that leaves
    /// the keyboard where it was).
    init(display: XDisplay, loop: EventLoop, router: CommandRouter, options: PresentationOptions,
         takesFocus: Bool = true) throws(XError) {
        self.display = display
        self.loop = loop
        self.router = router
        input = Input(bindings: options.bindings, focus: FocusWatch(minimizesOnBlur: options.minimizesOnBlur))
        controls.pointerHiding = options.pointerHiding
        warn = options.onWarning
        let screen = display.screenSize
        let gw = options.geometry?.width ?? min(1280, screen.width)
        let gh = options.geometry?.height ?? min(720, screen.height)
        let gx = options.geometry?.x ?? max(0, (screen.width - gw) / 2)
        let gy = options.geometry?.y ?? max(0, (screen.height - gh) / 2)
        let memory = options.thumbnailMemoryPath.map { ThumbnailMemory(path: $0) }
        placement = Placement(wantsFullscreen: !options.windowed, windowed: Rect(x: gx, y: gy, width: gw, height: gh),
                              portrait: screen.height > screen.width,
                              thumbnail: memory?.frame(for: ThumbnailMemory.key(display.monitors)), memory: memory)
        if let parent = options.parentWindow {
            let size = display.windowSize(parent) ?? (gw, gh)
            window = try XWindow(display: display, x: 0, y: 0, width: size.width, height: size.height, parent: parent)
            display.watchStructure(of: parent)
        } else if options.windowed {
            window = try XWindow(display: display, x: gx, y: gy, width: gw, height: gh)
        } else {
            // Fullscreen on the monitor the user is looking at: the one with the pointer.
            let pointer = display.pointerPosition
            let m = display.monitor(containingX: pointer.x, y: pointer.y)
            window = try XWindow(display: display, x: m.x, y: m.y, width: m.width, height: m.height)
            window.setFullscreen(true)
        }
        surface = Surface(window: window)
        loop.attach(window, surface: surface)
        window.setTitle("mediaview")
        window.setIcons(options.windowIcons)
        if let w = display.takeScaleWarning() { warn?(w) }
        // Files and links dragged from a file manager or browser; an embedded view's host
        // decides about drops on its own window.
        if options.parentWindow == nil { window.acceptDrops() }
        KeyboardDismissal.register(window)
        window.map()
        if takesFocus && !display.hasWindowManager && !window.isEmbedded { window.focus() }
    }

    isolated deinit {
        loop.detach(window)
    }

    /// Whether an event for window `id` concerns this stage: its window, its host, or the
    /// screen (the root window's size and rotation).
    func owns(window id: UInt) -> Bool { id == window.id || id == window.parent || id == display.root }

    /// Puts `v` on screen, opening it if it was not prepared ahead.
    func show(_ v: MediaView) {
        view = v
        // The player's threads hold the waker, never the loop and its X connection: the last
        // of them to end must not be the one that closes the display.
        let waker = loop.waker
        v.show(on: self, window: windowFacts, wake: { waker.wake() }, lowPower: isMinimized)
        drawing.arrival.awaitingFirstFrame = true
        drawing.arrival.hold = .notYet
        window.setTitle(FileName.display(v.title ?? MediaView.displayName(v.mediaURL ?? "mediaview")))
        needsRedraw = true
        loop.wake()
    }

    /// What a view shown here is told of the window: its size, colours and scale.
    var windowFacts: WindowFacts {
        WindowFacts(width: window.width, height: window.height, displayProfile: display.colourProfile,
                    desktopScale: desktopScale)
    }

    /// Whether this stage is a pinned thumbnail rather than the queue's window.
    var isPinned: Bool { placement.pinned }

    /// Whether the window is at rest: no animation moves it and no drag holds it. Only
    /// then do the pointer's place, the controls and the thumbnail's edges mean anything.
    var isAtRest: Bool { motion.animation == nil && input.gestures.drag == nil }

    /// Takes the view off the stage (dismissed); the window stays for the next one.
    func clear() {
        view?.leave(self)
        view = nil
        window.setPointer(.standard)
        needsRedraw = true
    }

    /// Follows the view and the stage's own motion; returns when to look again.
    func tick(now: Double) -> Double? {
        guard let v = view else { return nil }
        var deadline: Double?
        func soonest(_ d: Double?) { if let d { deadline = min(deadline ?? d, d) } }
        if let t = v.tick(presented: true, now: now) {
            if t.redraw {
                needsRedraw = true
                if v.hasPicture && v.failure == nil { drawing.draws.framesShown += 1 }
            }
            soonest(t.deadline)
        }
        // Sound without a picture: its first frame is the music indicator.
        if drawing.arrival.awaitingFirstFrame && v.info?.kind == .audio { needsRedraw = true }
        soonest(overlayDeadline(v, now: now))
        soonest(stepAnimation(now: now))
        soonest(checkHold(now: now))
        soonest(holdDeadline(now: now))
        soonest(window.transferDeadline)
        soonest(pointerDeadline(now: now))
        return deadline
    }

    /// Overlays that animate (spinner) or hide after a while need another look.
    private func overlayDeadline(_ v: MediaView, now: Double) -> Double? {
        if v.isWaitingForData {
            // Nothing is drawn until the loading indicator is due: most items open sooner.
            if let from = v.loadingIndicatorFrom, now < from { return from - now }
            // The loading and buffering indicators turn, at 30 frames a second. Asking for a
            // draw at every turn of the loop drew as fast as the X server answered (each
            // draw's completion is an event): 455 whole-window draws while one picture
            // loaded, taking the cores from the decoder it waited for.
            let next = drawing.draws.lastAt + Stage.indicatorInterval
            if now >= next { needsRedraw = true; return Stage.indicatorInterval }
            return next - now
        }
        // A message is drawn until it expires, then once more without it.
        let m = v.currentMessages(now: now)
        if m.expired { needsRedraw = true }
        if let first = m.messages.map(\.until).min() {
            return min(first - now + 0.01, controls.until > now ? controls.until - now + 0.01 : .infinity)
        }
        if controls.until > now { return controls.until - now + 0.01 }
        if controls.until != 0 { controls.until = 0; needsRedraw = true }
        if v.isPlayable && v.hasPicture && v.isPlaying && controlsVisible(now: now) { return 0.5 }
        return nil
    }

    func controlsVisible(now: Double) -> Bool {
        if now < controls.until { return true }
        if let v = view, v.isPlayable, !v.isPlaying { return true }
        return pointerRestsOnControls
    }

    /// The pointer rests on the track, its label or the close button: the controls stay
    /// while the user reads the time there or aims, as players' controls do.
    var pointerRestsOnControls: Bool {
        guard controls.pointerInside, !isMinimized, let v = view, let l = v.overlayLayout(in: bounds, controls: true) else {
            return false
        }
        let p = controls.pointer
        return [l.track, l.hoverRow, l.closeButton, l.previousButton, l.nextButton]
            .contains { $0?.contains(x: p.x, y: p.y) == true }
    }

    func showControls(now: Double) {
        let was = controlsVisible(now: now)
        controls.until = now + 2.5
        if !was { needsRedraw = true }
        needsRedraw = needsRedraw || trackHit()?.hover == true
    }

    /// Draws the view into the surface and shows it; true when it was the view's first
    /// picture on screen.
    @discardableResult
    func draw(now: Double) -> Bool {
        needsRedraw = false
        if keepsPreviousPicture(now: now) { return false }
        guard let buf = surface.begin(trackingInk: true) else { return false }
        if let v = view, let band = v.trackBand(in: bounds) {
            // While the window moves (a minimize under way) the pointer's last place says
            // nothing of what it is over.
            let showControls = controlsVisible(now: now) && !isMinimized && isAtRest
            // The track's layout costs text measuring: only worked out when it shows.
            // Within three track heights of it, the pointer is taken to be on its way there.
            var state = MediaSession.RenderState(now: now, showControls: showControls, overlayOpacity: motion.fade.overlay,
                                                 trackHover: showControls && trackHit()?.hover == true,
                                                 pointerX: controls.pointer.x, pointerMovedAt: controls.movedAt,
                                                 pointerNearTrack: showControls && controls.movedAt > 0
                                                     && controls.pointer.y >= band.y - 3 * band.height)
            if isMinimized && controls.pointerInside && isAtRest {
                state.stageControlsTop = ThumbnailControls(bounds: bounds, scale: v.currentInterfaceScale,
                                                           sound: v.info?.hasAudio ?? false).playButton.y
            }
            v.render(into: buf, state: state)
            if let nav = navigationButtons(now: now) { nav.draw(on: Canvas(buffer: buf).faded(by: motion.fade.overlay)) }
            if !isMinimized {
                let panel = infoPanel.isShown ? infoPanel.lines(for: v) : nil
                v.drawNotices(v.currentMessages(now: now).messages, panel: panel, controls: showControls,
                              on: Canvas(buffer: buf).faded(by: motion.fade.overlay))
            }
            if isMinimized && controls.pointerInside && isAtRest {
                let tc = ThumbnailControls(bounds: bounds, scale: v.currentInterfaceScale, sound: v.info?.hasAudio ?? false)
                // The time (and preview) under the pointer near the line, but not over the play
                // button, which the preview would cover.
                let p = controls.pointer
                let nearLine = p.y >= window.height - tc.hoverBandHeight && tc.hit(x: p.x, y: p.y) != .playPause
                tc.draw(on: Canvas(buffer: buf), view: v, theme: v.themeColor, pointerX: nearLine ? p.x : nil,
                        now: now, pointerMovedAt: controls.movedAt)
            }
            if motion.fade.content < 1 {
                // Fading as it is thrown away: darken, since a plain X server has no window opacity.
                Canvas(buffer: buf).fillRect(Rect(x: 0, y: 0, width: buf.width, height: buf.height),
                                             color: Color.black.withAlpha(fraction: 1 - motion.fade.content))
            }
        } else {
            buf.blacken(outside: nil)
        }
        surface.present()
        if case .pan(let x, let y, true) = input.gestures.drag, let v = view {
            input.gestures.drag = .pan(lastX: x, lastY: y, undrawn: false)
            v.notify { $0.mediaViewDidPan(v) }
        }
        drawing.draws.lastAt = now
        drawing.draws.lastSize = (window.width, window.height)
        drawing.draws.count += 1
        guard drawing.arrival.awaitingFirstFrame, let v = view, v.failure == nil else { return false }
        if v.takeFirstLookShown() { v.notify { $0.didShowFirstLook(for: v) } }
        guard v.hasPicture || v.info?.kind == .audio else { return false }
        drawing.arrival.awaitingFirstFrame = false
        v.notify { $0.didShowFirstFrame(for: v) }
        return true
    }

    var bounds: Rect { Rect(x: 0, y: 0, width: window.width, height: window.height) }

    /// Something the stage shows changed: it is drawn at the end of the turn.
    func setNeedsRedraw() { needsRedraw = true }

    /// Whether a draw was due, for whoever draws into the window instead (the gallery);
    /// it is no longer due after.
    func takeNeedsRedraw() -> Bool {
        defer { needsRedraw = false }
        return needsRedraw
    }

    /// The scale the desktop asks its interfaces to be drawn at (`Xft.dpi`, else the
    /// monitor's resolution, else 1x).
    var desktopScale: InterfaceScale { display.desktopScale }
}
