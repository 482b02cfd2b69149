import Dispatch
import FoundationEssentials
import Glibc
import Windowing

/// The queue of views presented one at a time, fullscreen: `MediaQueue.shared`, as in the
/// seed.
///
/// Whenever nothing is presented and views wait, the first one is presented; the one after
/// it is prepared (opened and decoded, paused) so that `presentNext` is instant.
@MainActor
public final class MediaQueue {
    public static let shared = MediaQueue()

    /// Waiting views, the presented one first.
    public private(set) var views: [MediaView] = []
    /// The view on screen.
    public private(set) var current: MediaView?
    /// Views dismissed before, newest last, for `presentPrevious`.
    private(set) var history: [MediaView] = []
    /// Where views are shown; made on first need.
    var presenter: Presenter?
    /// How the presenter window is made; set before the first view is presented.
    public var presentation = PresentationOptions()

    public init() {}

    /// Adds a view; presents it if nothing was presented.
    public func queue(mediaView: MediaView) {
        guard !views.contains(where: { $0 === mediaView }) else { return }
        views.append(mediaView)
        mediaView.preloadIfWanted()  // issue 5: shouldPreloadPlayableMedia
        if current == nil { presentFirst(animated: false) }
    }

    /// Removes a waiting view (not the presented one; dismiss that).
    public func dequeue(mediaView: MediaView) {
        guard mediaView !== current else { return }
        views.removeAll { $0 === mediaView }
    }

    /// Jumps the queue: dismisses the current view and presents `mediaView` now.
    public func present(mediaView: MediaView, animated: Bool = true) {
        if let c = current { dismiss(c, keepInHistory: true) }
        views.removeAll { $0 === mediaView }
        views.insert(mediaView, at: 0)
        presentFirst(animated: animated)
    }

    /// Dismisses the current view, then presents the next one, if any.
    public func presentNext() {
        guard let c = current else { return }
        dismiss(c, keepInHistory: true)
        presentFirst(animated: false)
    }

    /// Goes back to the view dismissed last.
    public func presentPrevious() {
        guard let prev = history.popLast() else { return }
        if let c = current {
            dismiss(c, keepInHistory: false)
            views.insert(c, at: 0)
            c.rewind()
        }
        prev.rewind()
        views.insert(prev, at: 0)
        presentFirst(animated: false)
    }

    /// Dismisses the current view; `completion` runs after it is gone.
    public func dismissCurrent(animated: Bool = true, completion: (() -> Void)? = nil) {
        guard let c = current else { completion?(); return }
        dismiss(c, keepInHistory: true)
        completion?()
        presentFirst(animated: false)
    }

    private func dismiss(_ v: MediaView, keepInHistory: Bool) {
        v.notify { $0.willDismiss(mediaView: v) }
        views.removeAll { $0 === v }
        current = nil
        v.pause()
        presenter?.didDismiss(v)
        v.notify { $0.didDismiss(mediaView: v) }
        if keepInHistory { history.append(v) }
        v.releasePlayer()
    }

    private func presentFirst(animated: Bool) {
        guard current == nil, let v = views.first else { return }
        guard let p = presenterOrNil() else { return }
        current = v
        v.notify { $0.willPresent(mediaView: v) }
        p.present(v)
        v.notify { $0.didPresent(mediaView: v) }
        if views.count > 1 { p.prefetch(views[1]) }
    }

    func presenterOrNil() -> Presenter? {
        if presenter == nil {
            do {
                presenter = try Presenter(queue: self, options: presentation)
            } catch {
                presentation.onError?(error.message)
                return nil
            }
        }
        return presenter
    }

    /// Runs the main loop until the queue is empty (with `autoExit`) or the user quits.
    /// Returns false when no window could be made.
    @discardableResult
    public func run() -> Bool {
        guard let p = presenterOrNil() else { return false }
        p.run()
        return true
    }

    /// Closes every view's player and the window (end of the program).
    public func shutdown() {
        for v in views { v.resetMedia() }
        for v in history { v.resetMedia() }
        current = nil
        views.removeAll()
        history.removeAll()
        presenter = nil
    }

    /// Ends `run()` at its next turn.
    public func quit() { presenter?.quitRequested = true }
}

/// How the presenting window is made and when the loop ends.
public struct PresentationOptions {
    public var windowed = false
    public var geometry: (width: Int, height: Int, x: Int?, y: Int?)?
    /// Embed into this foreign window (`--wid`).
    public var parentWindow: UInt?
    /// Quit when the queue is done.
    public var autoExit = false
    /// Quit after this many frames were shown.
    public var frameLimit: Int?
    /// Show frames as fast as they decode.
    public var benchmark = false
    public var bindings = InputBindings()
    /// Called with a one-line message when the window cannot be made.
    public var onError: ((String) -> Void)?
    public init() {}
}
