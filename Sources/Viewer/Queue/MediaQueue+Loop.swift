import MediaCore
import Playback
import Windowing

/// The main loop: one turn handles X events, follows the views' players, moves the queue
/// on, and draws; between turns it sleeps until a deadline, an event, a wake from a decoder
/// thread, one of the app's descriptors, or the app's own main-queue work.
extension MediaQueue {
    /// Runs the main loop until `stop()` (or `quit()`) is called, as UIKit's run loop lives
    /// until the app ends: a view queued later, from a timer or a download, is presented
    /// when it is queued, and an empty queue simply waits. With `endsWhenEmpty` it also
    /// returns once everything was dismissed or played (a player of files given on a
    /// command line). Work the app schedules on the main queue or the main actor (timers,
    /// `Task.sleep`) runs meanwhile. Returns false when no window could be made.
    @discardableResult
    public func run() -> Bool {
        guard let s = screenOrNil() else { return false }
        counters.start = MonotonicClock.seconds()
        while case .wait(let deadline) = turn() {
            s.loop.wait(timeout: deadline)
        }
        current?.pause()
        // A later `run()` (the app shows more media after a pause) runs again.
        quitRequested = false
        return true
    }

    /// Runs the main loop as `run()` does, for an app whose main thread belongs to
    /// libdispatch (an `async` main): the loop is driven from the main queue, and this
    /// returns when `stop()` is called (or the queue is done, with `endsWhenEmpty`).
    @discardableResult
    public func run() async -> Bool {
        guard let s = screenOrNil() else { return false }
        counters.start = MonotonicClock.seconds()
        await s.loop.runDispatched { [self] in turn() }
        current?.pause()
        // A later `run()` (the app shows more media after a pause) runs again.
        quitRequested = false
        return true
    }

    /// Adds a descriptor to the loop: `onReadable` runs on the main actor whenever it can be
    /// read. Desktop integration (a control socket, the session bus, a signal pipe) joins the
    /// loop this way.
    public func watch(fileDescriptor fd: Int32, onReadable: @escaping @MainActor () -> Void) {
        let handler = { MainActor.assumeIsolated { onReadable() } }
        watches[fd] = handler
        screen?.loop.watch(fd, onReadable: handler)
    }

    /// Takes a descriptor out of the loop, before the app closes it.
    public func unwatch(fileDescriptor fd: Int32) {
        watches[fd] = nil
        screen?.loop.unwatch(fd)
    }

    /// What the queue has shown so far.
    public var statistics: PlaybackStatistics {
        let stage = screen?.stage
        return PlaybackStatistics(framesShown: stage?.drawing.draws.framesShown ?? 0,
                                  droppedFrames: counters.droppedBefore + (current?.droppedFrames ?? 0),
                                  seconds: MonotonicClock.seconds() - counters.start)
    }

    /// The X connection, loop and stage, made on first need; nil (after telling
    /// `presentation.onError`) when there is no usable display.
    func screenOrNil() -> Screen? {
        if let screen { return screen }
        do {
            let display = try XDisplay()
            let loop = try EventLoop(display: display)
            for (fd, handler) in watches { loop.watch(fd, onReadable: handler) }
            let router = CommandRouter(queue: self)
            let stage = try Stage(display: display, loop: loop, router: router, options: presentation)
            screen = Screen(display: display, loop: loop, router: router, stage: stage, gallery: Gallery(queue: self))
        } catch {
            presentation.onError?(error.message)
        }
        return screen
    }

    /// One turn: events, the views' players, the queue's policy, drawing; then how long to
    /// sleep, or stop.
    func turn() -> LoopStep {
        guard !quitRequested, let s = screen else { return .stop }
        for (w, e) in s.loop.pendingEvents() {
            // The gallery takes its window's input while it shows.
            if s.gallery.isShown, w == s.stage.window.id, s.gallery.handle(e, on: s.stage) { continue }
            for stage in [s.stage] + s.pinned where stage.owns(window: w) { stage.handle(e, from: w) }
        }
        if quitRequested { return .stop }
        let now = MonotonicClock.seconds()
        var deadline: Double?
        func soonest(_ d: Double?) { if let d { deadline = min(deadline ?? d, d) } }
        if let p = prepared, p !== current { _ = p.tick(presented: false, now: now) }
        if let p = preparedPrevious, p !== current { _ = p.tick(presented: false, now: now) }
        // Pinned thumbnails play on whatever the queue does.
        let pinned = screen?.pinned ?? []
        for p in pinned { soonest(p.tick(now: now)) }
        if let v = current {
            soonest(s.stage.tick(now: now))
            s.stage.showPointer(now: now, underGallery: s.gallery.isShown)
            // The grid covers the item: it does not move on under the user's eyes.
            if !s.gallery.isShown { soonest(advanceIfDone(v, now: now)) }
        } else if views.isEmpty && pinned.isEmpty && endsWhenDone && !presentation.idles {
            // Everything was dismissed or played, and the app said that ends the run
            // (unless it idles, as mpv's --idle, for a script to load more).
            return .stop
        }
        soonest(s.gallery.turn(on: s.stage, now: now))
        for stage in [s.stage] + pinned where stage.needsRedraw && !(stage === s.stage && s.gallery.isShown) {
            stage.draw(now: now)
        }
        if let limit = presentation.frameLimit, s.stage.drawing.draws.framesShown >= limit { return .stop }
        if endsWhenDone && !presentation.idles && current == nil && views.isEmpty && (screen?.pinned.isEmpty ?? true) {
            return .stop
        }
        for follow in turnFollowers { follow() }
        return .wait(deadline)
    }

    /// Whether an empty queue ends the run: the app said so, the presentation quits when
    /// the queue is done (`autoExit`), or the run is bounded by a frame count.
    var endsWhenDone: Bool { endsWhenEmpty || presentation.autoExit || presentation.frameLimit != nil }

    /// Moves on when the current view is done and the queue should advance. Returns when
    /// to look again.
    private func advanceIfDone(_ v: MediaView, now: Double) -> Double? {
        guard v.hasEnded else { return nil }
        if v.failure != nil || v.info?.isPlayable == true {
            // A finished view stays unless it asked to go, the app asked the queue to run by
            // itself, or the program ends when the queue does.
            // A thumbnail that ended stays on its last frame, as a browser's picture-in-picture
            // does: the user put it aside to watch, not to have the queue move on in a corner.
            let more = views.count > 1 && screen?.stage.isMinimized != true
            // A run bounded by a frame count is a script's: an item that failed or ended
            // before the count moves on as with autoExit, so the run ends rather than
            // waiting on frames that will never come.
            let bounded = presentation.autoExit || presentation.frameLimit != nil
            if v.shouldDismissAfterFinishedPlaying || bounded || (more && presentation.advancesAutomatically) {
                presentNext()
                return 0
            }
            return nil
        }
        // Stills and GIFs stay until the user moves on, unless the queue runs by itself.
        guard presentation.autoExit || (presentation.advancesStills && views.count > 1) else { return nil }
        if v.isDone(now: now) {
            presentNext()
            return 0
        }
        return v.secondsUntilDone(now: now)
    }

    /// Start of the run and frames dropped by views already dismissed.
    struct Counters {
        var start = MonotonicClock.seconds()
        var droppedBefore = 0
    }
}

/// What a queue has shown: for a summary at exit or a benchmark.
public struct PlaybackStatistics: Sendable, Equatable {
    /// Frames of media put on screen (overlay-only redraws do not count).
    public var framesShown: Int
    /// Frames the players dropped to keep time.
    public var droppedFrames: Int
    /// Seconds since `run()` started.
    public var seconds: Double
}
