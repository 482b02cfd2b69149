import Dispatch
import FoundationEssentials
import Glibc
import Playback
import Windowing

/// Shows the queue's current view in a window and runs the one main loop.
///
/// Each turn: handle X events, let the view follow its player, draw if something changed,
/// then sleep in `poll` until the next frame's deadline, an X event, or a wake from a
/// decoder thread.
@MainActor
final class Presenter {
    let display: XDisplay
    let loop: EventLoop
    let window: XWindow
    let surface: Surface
    unowned let queue: MediaQueue
    var options: PresentationOptions
    var quitRequested = false
    var needsRedraw = true
    /// Frames of media shown (not overlay-only redraws).
    var framesShown = 0
    var startTime = MonotonicClock.seconds()
    /// Controls stay visible until then (pointer moved, key pressed).
    var controlsUntil: Double = 0
    var pointer: (x: Int, y: Int) = (0, 0)
    var press: (x: Int, y: Int, rootX: Int, rootY: Int, time: Double)?
    /// The press began on the track: motion scrubs instead of dragging the view.
    var scrubbing = false
    /// Gesture state (Presenter+Gestures).
    var drag: Drag?
    var dragStart: Rect?
    var dragNotifiedChange = false
    var motionSamples: [(y: Int, t: Double)] = []
    var animation: Animation?
    var isMinimized = false
    var overlayOpacity: Double = 1
    var contentOpacity: Double = 1
    /// Fullscreen is what the user wants when not minimized (false after `f` in a window).
    var wantsFullscreen: Bool
    /// Where an inline view was before it grew to fullscreen.
    var inlineOrigin: Rect?
    /// The screen's orientation last seen, to tell rotations from resizes.
    var lastPortrait = false
    var lastClick: (time: UInt, x: Int, y: Int)?
    var windowedGeometry: (x: Int, y: Int, width: Int, height: Int)
    var prefetched: MediaView?
    /// The presented view's first picture is yet to reach the window (`first_frame` event).
    var awaitingFirstFrame = false
    /// Frames dropped by players already dismissed, for the totals at exit.
    var droppedBefore = 0

    init(queue: MediaQueue, options: PresentationOptions) throws(XError) {
        self.queue = queue
        self.options = options
        wantsFullscreen = !options.windowed
        display = try XDisplay()
        loop = try EventLoop(display: display)
        let screen = display.screenSize
        lastPortrait = screen.height > screen.width
        let gw = options.geometry?.width ?? min(1280, screen.width)
        let gh = options.geometry?.height ?? min(720, screen.height)
        let gx = options.geometry?.x ?? max(0, (screen.width - gw) / 2)
        let gy = options.geometry?.y ?? max(0, (screen.height - gh) / 2)
        windowedGeometry = (gx, gy, gw, gh)
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
        SignalWatch.install(waking: loop)
        window.map()
        if !display.hasWindowManager && !window.isEmbedded { window.focus() }
    }

    /// Puts `v` on screen.
    func present(_ v: MediaView) {
        let l = loop
        v.wake = { l.wake() }
        if prefetched === v { prefetched = nil }
        v.firstShownAt = MonotonicClock.seconds()
        awaitingFirstFrame = true
        v.playerOptions.targetSize = (window.width, window.height)
        v.prepare()
        v.player?.setLowPower(isMinimized)
        if v.shouldAutoPlayAfterPresentation { v.play() }
        window.setTitle(v.title ?? MediaView.displayName(v.mediaURL ?? "mediaview"))
        needsRedraw = true
        loop.wake()
    }

    /// Opens the next view ahead of time.
    func prefetch(_ v: MediaView) {
        let l = loop
        v.wake = { l.wake() }
        prefetched = v
        v.playerOptions.targetSize = (window.width, window.height)
        v.prepare()
    }

    func didDismiss(_ v: MediaView) {
        if prefetched === v { prefetched = nil }
        droppedBefore += v.player?.droppedFrames ?? 0
        needsRedraw = true
    }

    /// The main loop; returns when the user quits or (with autoExit) the queue is done.
    func run() {
        startTime = MonotonicClock.seconds()
        while case .wait(let deadline) = turn() {
            loop.wait(timeout: deadline)
        }
        queue.current?.pause()
    }

    /// What one turn of the loop decided.
    enum Turn { case wait(Double?), stop }

    /// One turn: events, the views' players, drawing; then how long to sleep, or stop.
    func turn() -> Turn {
        if quitRequested || SignalWatch.pending != nil { return .stop }
        for (w, e) in loop.pendingEvents() {
            if let parent = window.parent, w == parent {
                // The host window changed size: an embedded view fills it.
                if case .configured(_, _, let pw, let ph) = e, window.isEmbedded {
                    window.setGeometry(x: 0, y: 0, width: pw, height: ph)
                    needsRedraw = true
                }
                continue
            }
            handle(e)
        }
        if quitRequested { return .stop }
        let now = MonotonicClock.seconds()
        var deadline: Double? = nil
        func soonest(_ d: Double?) { if let d { deadline = min(deadline ?? d, d) } }
        if let p = prefetched, p !== queue.current { _ = p.tick(presented: false, now: now) }
        if let v = queue.current {
            let t = v.tick(presented: true, now: now)
            if t.redraw {
                needsRedraw = true
                if v.lastFrame != nil && v.failure == nil { framesShown += 1 }
            }
            soonest(t.deadline)
            // Sound without a picture: its first frame is the music indicator.
            if awaitingFirstFrame && v.info?.kind == .audio { needsRedraw = true }
            soonest(advanceIfDone(v, now: now))
            soonest(overlayDeadline(v, now: now))
            soonest(stepAnimation(now: now))
            soonest(checkHold(now: now))
        } else if queue.views.isEmpty {
            // Everything was dismissed or played: nothing is left to show.
            return .stop
        }
        if needsRedraw { draw(now: now) }
        if let limit = options.frameLimit, framesShown >= limit { return .stop }
        if queue.current == nil && queue.views.isEmpty { return .stop }
        return .wait(deadline)
    }

    /// Moves on when the current view is done and the queue advances by itself. Returns
    /// when to look again.
    private func advanceIfDone(_ v: MediaView, now: Double) -> Double? {
        guard v.failure != nil || v.finishedAt != nil else { return nil }
        if v.failure != nil || v.info?.isPlayable == true {
            // Failures and played media move on when more is queued, as mpv does; the last
            // one stays on screen unless the program should exit.
            let more = queue.views.count > 1
            if more || options.autoExit || v.shouldDismissAfterFinishedPlaying {
                queue.presentNext()
                return 0
            }
            return nil
        }
        // Stills and GIFs stay until the user moves on, unless the queue runs by itself.
        guard options.autoExit else { return nil }
        if v.isDone(now: now) {
            queue.presentNext()
            return 0
        }
        return max(0.01, v.imageDuration - (now - v.firstShownAt))
    }

    /// Overlays that animate (spinner) or hide after a while need another look.
    private func overlayDeadline(_ v: MediaView, now: Double) -> Double? {
        if let p = v.player, p.isStarving || p.phase == .opening {
            // The loading and buffering indicators turn.
            needsRedraw = true
            return 1.0 / 30
        }
        if controlsUntil > now { return controlsUntil - now + 0.01 }
        if controlsUntil != 0 { controlsUntil = 0; needsRedraw = true }
        if v.isPlayable && v.lastFrame != nil && v.isPlaying && controlsVisible(now: now) { return 0.5 }
        return nil
    }

    func controlsVisible(now: Double) -> Bool {
        if now < controlsUntil { return true }
        if let v = queue.current, v.isPlayable, !v.isPlaying { return true }
        return false
    }

    func draw(now: Double) {
        needsRedraw = false
        guard let buf = surface.begin() else { return }
        if let v = queue.current {
            let controls = controlsVisible(now: now) && !isMinimized
            // The track's layout costs text measuring: only worked out when it shows.
            let state = MediaView.RenderState(now: now, showControls: controls, overlayOpacity: overlayOpacity,
                                              trackHover: controls && trackHit(v)?.hover == true, pointerX: pointer.x)
            v.render(into: buf, state: state)
            if contentOpacity < 1 {
                // Fading as it is thrown away: darken, since a plain X server has no window opacity.
                Canvas(buffer: buf).fillRect(Rect(x: 0, y: 0, width: buf.width, height: buf.height),
                                             color: Color.black.withAlpha(fraction: 1 - contentOpacity))
            }
        } else {
            buf.clear()
        }
        surface.present()
        if awaitingFirstFrame, let v = queue.current, v.failure == nil,
           v.lastFrame != nil || v.info?.kind == .audio {
            awaitingFirstFrame = false
            v.notify { ($0 as? EventRecorder)?.firstFrameShown(mediaView: v) }
        }
    }

    /// Frames dropped by every player so far.
    var totalDropped: Int { droppedBefore + (queue.current?.player?.droppedFrames ?? 0) }

    /// Summary line of `--benchmark`.
    func benchmarkLine() -> String {
        let secs = MonotonicClock.seconds() - startTime
        let dropped = totalDropped
        let fps = secs > 0 ? Double(framesShown) / secs : 0
        return "frames=\(framesShown) seconds=\(TextFormat.fixed(secs, digits: 3)) "
            + "fps=\(TextFormat.fixed(fps, digits: 2)) dropped=\(dropped)"
    }
}
