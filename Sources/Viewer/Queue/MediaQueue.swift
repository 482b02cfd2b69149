import Playback
import Windowing

/// The queue of views presented one at a time: `MediaQueue.shared`, as MediaView users
/// know it.
///
/// Whenever nothing is presented and views wait, the first one is presented; the one after
/// it is prepared (opened and decoded, paused) so that `presentNext` is instant. `run()`
/// runs the main loop, which also runs the app's own main-queue work and timers.
@MainActor
public final class MediaQueue {
    /// The queue an app normally uses.
    public static let shared = MediaQueue()

    /// Waiting views, the presented one first.
    public internal(set) var views: [MediaView] = [] { didSet { membership = nil; othersChanged() } }
    /// The view on screen.
    public internal(set) var current: MediaView? { didSet { othersChanged() } }
    /// Views dismissed before, newest last, for `presentPrevious`.
    var history: [MediaView] = [] { didSet { membership = nil; othersChanged() } }
    /// Which views are in `views` or `history`, while neither changed since it was made:
    /// a folder of a million files arrives in thousands of batches, and rebuilding this
    /// for each batch made queueing quadratic (minutes for 200,000 files).
    var membership: Set<ObjectIdentifier>?
    /// The next view, opened ahead of time.
    var prepared: MediaView?
    /// The view before the current one, kept open so going back is as instant as going on.
    var preparedPrevious: MediaView?
    /// How the window is made and when the loop ends; set before the first view shows.
    public var presentation = PresentationOptions()
    /// The X connection, the loop and the window, made on first need.
    var screen: Screen?
    /// Descriptors the app asked the loop to watch, kept for a loop made later.
    var watches: [Int32: () -> Void] = [:]
    /// Frames shown, frames dropped and time, for the program's summary.
    var counters = Counters()
    var quitRequested = false
    /// `run()` returns once nothing is presented or waiting, as a player of a list of files
    /// ends after the last one. Off (the default), `run()` lives until `stop()`, as an
    /// app's run loop does, and presents whatever is queued whenever it is queued.
    public var endsWhenEmpty = false
    /// Run after every turn of the loop, to publish what changed (the MPRIS player).
    private(set) var turnFollowers: [@MainActor () -> Void] = []
    /// Views whose files went to the trash, newest last, for undo.
    var trashed: [(view: MediaView, item: Trash.Item)] = []

    /// The X side of a queue: one connection, its loop, and the stage that shows the queue.
    struct Screen {
        let display: XDisplay
        let loop: EventLoop
        let router: CommandRouter
        let stage: Stage
        /// The queue as a grid of thumbnails, drawn in the stage's window when shown.
        let gallery: Gallery
        /// Thumbnails that keep playing while the queue moves on, oldest first.
        var pinned: [Stage] = []
    }

    /// A new, empty queue.
    public init() {}

    /// Adds a view; presents it if nothing was presented.
    public func queue(mediaView: MediaView) {
        guard !views.contains(where: { $0 === mediaView }) else { return }
        views.append(mediaView)
        mediaView.preloadIfWanted()
        if current == nil { presentFirst() }
        else if views.count == 2 { prepare(views[1]) }
    }

    /// Adds several views at once (a drop, a paste). With `presentingFirst` they go right
    /// after the presented view and the first of them is presented now (the one it replaces
    /// stays in the history); otherwise they wait at the end of the queue.
    public func queue(mediaViews new: [MediaView], presentingFirst: Bool) {
        // A set, not `contains` per view: a drop of 10,000 files must not take seconds.
        var known = Set(views.map(ObjectIdentifier.init))
        let fresh = new.filter { known.insert(ObjectIdentifier($0)).inserted }
        guard !fresh.isEmpty else { return }
        for v in fresh { v.preloadIfWanted() }
        if presentingFirst, let c = current {
            views.insert(contentsOf: fresh, at: 1)
            dismiss(c, keepInHistory: true)
            presentFirst()
        } else {
            views.append(contentsOf: fresh)
            if current == nil { presentFirst() } else { prepare(views[1]) }
        }
    }

    /// Removes a waiting view (not the presented one; dismiss that).
    public func dequeue(mediaView: MediaView) {
        guard mediaView !== current else { return }
        views.removeAll { $0 === mediaView }
        if prepared === mediaView { unprepare() }
    }

    /// Jumps the queue: dismisses the current view and presents `mediaView` now. The view
    /// already on screen stays as it is.
    /// Animated, it grows from its origin rectangle when it has one.
    public func present(mediaView: MediaView, animated: Bool = true) {
        guard mediaView !== current else { return }
        if let c = current { dismiss(c, keepInHistory: true) }
        views.removeAll { $0 === mediaView }
        views.insert(mediaView, at: 0)
        presentFirst(animated: animated)
    }

    /// Dismisses the current view, then presents the next one, if any.
    public func presentNext() {
        guard let c = current else { return }
        dismiss(c, keepInHistory: true)
        presentFirst()
    }

    /// Goes back to the view dismissed last; the current one waits again, first in line.
    public func presentPrevious() {
        guard let prev = history.popLast() else { return }
        if preparedPrevious === prev { preparedPrevious = nil }
        if let c = current {
            dismiss(c, keepInHistory: false)
            views.insert(c, at: 0)
        }
        views.insert(prev, at: 0)
        presentFirst()
    }

    /// Dismisses the current view; `completion` runs after it is gone. Animated, the view
    /// shrinks into its origin rectangle (or fades out where it has none) over a quarter
    /// second first, and the delegate hears `willDismiss` when it is gone, as without.
    public func dismissCurrent(animated: Bool = true, completion: (() -> Void)? = nil) {
        guard let c = current else { completion?(); return }
        let finish: @MainActor () -> Void = { [self] in
            // The user may have moved on during the motion: only the same view goes.
            if current === c { dismiss(c, keepInHistory: true) }
            completion?()
            presentFirst()
        }
        if animated, let stage = screen?.stage, stage.view === c, stage.animateDismissal(done: finish) { return }
        finish()
    }

    /// Every item in order, as a playlist: those dismissed before, the presented one, then
    /// those waiting.
    public var playlist: [MediaView] { history + views }

    /// The presented view's index in `playlist`, or nil when nothing is presented.
    public var playlistPosition: Int? { current == nil ? nil : history.count }

    /// Whether there is an item to go back to with `presentPrevious()`.
    public var hasPrevious: Bool { !history.isEmpty }

    /// Whether an item waits after the presented one, for `presentNext()` to show.
    public var hasNext: Bool { views.contains { $0 !== current } }

    /// Runs `body` after every turn of the loop, once what the turn changed is settled: for
    /// publishing the queue's state elsewhere (a desktop's media controls).
    public func afterEachTurn(_ body: @escaping @MainActor () -> Void) {
        turnFollowers.append(body)
    }

    /// Makes `mediaView` the whole queue and presents it: what opening a file in a
    /// running player means (mpv's `loadfile` replace).
    public func replaceAll(with mediaView: MediaView) {
        if let c = current, c !== mediaView { dismiss(c, keepInHistory: false) }
        unprepare()
        views.removeAll { $0 !== current }
        history.removeAll()
        queue(mediaView: mediaView)
    }

    /// Carries out a command as if its key had been pressed: scripts and desktop controls
    /// use the same commands as the key bindings. Nothing happens before the window exists.
    public func execute(_ command: PlayerCommand) {
        guard let s = screen else { return }
        s.router.execute(command, on: s.stage)
    }

    /// Ends `run()` at its next turn: the app is done showing media.
    public func stop() { quit() }

    /// Ends `run()` at its next turn.
    public func quit() {
        quitRequested = true
        screen?.loop.wake()
    }

    /// Closes every view's player and the window (the end of the program). Every player the
    /// queue holds is closed here, pinned and trashed ones too, and closing joins its
    /// threads: none is left to run while the process exits.
    public func shutdown() {
        screen?.gallery.close()
        let pinned = screen?.pinned.compactMap(\.view) ?? []
        for v in views + history + pinned + trashed.map(\.view) { v.resetMedia() }
        // What goes is let go only once these fields are written: a view's last release can
        // end an observer (the MPRIS player) that takes its descriptors out of the loop, and
        // that reads these fields; inside the write it would be a conflicting access.
        let leaving = (views, history, screen, current, prepared, preparedPrevious)
        current = nil
        prepared = nil
        preparedPrevious = nil
        views.removeAll()
        history.removeAll()
        screen = nil
        withExtendedLifetime(leaving) {}
    }

    func dismiss(_ v: MediaView, keepInHistory: Bool) {
        v.notify { $0.willDismiss(mediaView: v) }
        views.removeAll { $0 === v }
        current = nil
        v.pause()
        counters.droppedBefore += v.droppedFrames
        screen?.stage.clear()
        v.notify { $0.didDismiss(mediaView: v) }
        if keepInHistory { history.append(v) }
        // Off screen, a view holds no threads, sound stream or pictures, except a still,
        // which is now the item before or after the current one: its decoded picture is
        // what makes going back instant, and it has nothing to rewind (the queue lets it go
        // once it is no longer a neighbour). Playable media reopen from the start.
        if v.imageViewNotReused || !(v.failure == nil && v.info?.isPlayable == false) { v.releaseSession() }
    }

    func presentFirst(animated: Bool = true) {
        guard current == nil, let v = views.first, let stage = screenOrNil()?.stage else { return }
        stage.unhide()
        if prepared === v { prepared = nil }
        current = v
        v.notify { $0.willPresent(mediaView: v) }
        stage.show(v)
        if v.shouldAutoPlayAfterPresentation { v.play() }
        if animated { stage.growFromOrigin(v) }
        v.notify { $0.didPresent(mediaView: v) }
        if views.count > 1 { prepare(views[1]) } else { unprepare() }
        preparePrevious()
    }

    /// Opens `v` ahead of time, letting go of a view prepared before that is no longer next.
    func prepare(_ v: MediaView) {
        guard prepared !== v, let s = screen else { return }
        unprepare()
        openAhead(v, on: s)
        prepared = v
    }

    /// Starts opening `v` off screen, sized for the window, waking the loop as it decodes.
    func openAhead(_ v: MediaView, on s: Screen) {
        // The waker, not the loop: the view's threads must never hold the X connection.
        let waker = s.loop.waker
        var facts = s.stage.windowFacts
        // Not on the stage yet: the desktop's scale reaches it when it is shown.
        facts.desktopScale = nil
        v.prepare(for: facts, wake: { waker.wake() })
    }

    func unprepare() {
        if let p = prepared, p !== current, p !== preparedPrevious { p.releaseSession() }
        prepared = nil
    }

    /// Carries out a command that acts on the queue.
    func perform(_ c: PlayerCommand) {
        switch c {
        case .next: presentNextByHand()
        case .previous: presentPreviousByHand()
        case .toggleFit: toggleFit()
        case .first: presentFirstItem()
        case .last: presentLastItem()
        case .trash: trashCurrent()
        case .undoTrash: undoTrash()
        case .quit: quit()
        case .screenshot: saveScreenshot()
        case .pin: pinCurrent()
        case .speed(let change): changeSpeed(change)
        case .toggleSubtitles:
            // One choice for the whole queue, as mpv's sub-visibility: the next film does
            // not bring back the subtitles the user just hid.
            guard let v = current else { return }
            v.toggleSubtitles()
            let shows = v.showsSubtitles
            MediaView.changeAll(playlist.lazy.filter { $0 !== v }) { $0.showsSubtitles = shows }
        default: break
        }
    }
}
