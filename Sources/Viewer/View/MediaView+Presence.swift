import Playback
import Web

/// What a view holds only once it is opened, waited on or given words to show. A queue of
/// a million files opens three of them at a time; the rest never need any of it.
@MainActor
final class Presence {
    /// The window the view was last prepared for or shown in.
    var windowFacts: WindowFacts?
    /// Runs once the media is loaded or has failed.
    var loadCompletion: ((MediaView) -> Void)?
    /// A download of the media into the cache, started before it is presented.
    var preloader: Downloader?
    /// Short lines over the media (resume position, screenshot saved), oldest first, each
    /// while it lasts.
    var messages: [OnScreenMessage] = []
    /// Wakes the main loop; set when a queue takes the view.
    var wake: @Sendable () -> Void = {}
}

extension MediaView {
    /// The window the view was last prepared for or shown in; nil until a queue takes it.
    var windowFacts: WindowFacts? {
        get { presence?.windowFacts }
        set { if newValue != nil || presence != nil { present().windowFacts = newValue } }
    }
    /// Runs once the media is loaded or has failed.
    var loadCompletion: ((MediaView) -> Void)? {
        get { presence?.loadCompletion }
        set { if newValue != nil || presence != nil { present().loadCompletion = newValue } }
    }
    /// A download of the media into the cache, started before it is presented.
    var preloader: Downloader? {
        get { presence?.preloader }
        set { if newValue != nil || presence != nil { present().preloader = newValue } }
    }
    /// Short lines over the media (resume position, screenshot saved), oldest first, each
    /// while it lasts.
    var messages: [OnScreenMessage] {
        get { presence?.messages ?? [] }
        set { if !newValue.isEmpty || presence != nil { present().messages = newValue } }
    }
    /// Wakes the main loop; set when a queue takes the view.
    var wake: @Sendable () -> Void {
        get {
            guard let presence else { return {} }
            return presence.wake
        }
        set { present().wake = newValue }
    }

    private func present() -> Presence {
        if let presence { return presence }
        let made = Presence()
        presence = made
        return made
    }
}
