import Glibc
import MediaCore
import Playback
import Web
import Windowing

/// A view that shows one image, animated GIF, video or audio item: the desktop form of
/// MediaView.
///
/// Set media with the `set...` calls, queue the view on `MediaQueue.shared`, and it is
/// presented in its own window (or inside a host window). Its options are the properties
/// MediaView users know (`view.swipeMode = .minimize`), kept together in `settings`. All of
/// it lives on the main actor, as UIKit views do; delegate calls arrive there.
@MainActor
@dynamicMemberLookup
public final class MediaView {
    /// Receives the callbacks. Held weakly, as delegates are.
    public weak var delegate: MediaViewDelegate?
    /// Extra observers (the program's event log); held strongly, removed by `reset()`.
    var observers: [MediaViewDelegate] = []
    /// Every option, in one value. The session follows every change at once.
    public var settings: Settings {
        get { sharedSettings.value }
        set {
            let preloaded = sharedSettings.value.shouldPreloadPlayableMedia
            // Views made alike share one copy until one of them changes an option.
            if isKnownUniquelyReferenced(&sharedSettings) { sharedSettings.value = newValue }
            else { sharedSettings = SharedSettings(newValue) }
            session?.use(settings: newValue)
            if newValue.shouldPreloadPlayableMedia && !preloaded { preloadIfWanted() }
        }
    }
    /// Where `settings` is kept: one box for every view made `like` another, so a folder of
    /// a million items holds its options once, not a million times.
    var sharedSettings = SharedSettings.defaults
    /// A number the app gives the view to find it by, as UIKit views have: the program
    /// keeps each item's place in the order it was made here.
    public var tag = 0
    /// What to show: the media, its thumbnail and preview, title and details.
    var content = Content() {
        didSet { session?.use(content: content) }
    }
    /// The run-time of one presentation (players, pictures, zoom); nil while not prepared.
    private(set) var session: MediaSession?
    /// The window the view was opened for, what waits on it and what it says on screen:
    /// made when the view is first opened or waited on, so that a view of a folder's
    /// millionth file, which may never be reached, costs little more than its path.
    var presence: Presence?
    /// The window showing the view, for minimizing and restoring from code.
    private(set) weak var stage: Stage?

    /// A view with no media and the default options.
    public init() {}

    isolated deinit {
        presence?.preloader?.cancel()
    }

    /// Sets the title and details shown at the top while the controls show.
    public func setTitle(_ title: String?, details: String? = nil) {
        content.title = title
        content.details = details
    }

    /// The title set with `setTitle`.
    public var title: String? { content.title }
    /// The details set with `setTitle`.
    public var details: String? { content.details }
    /// The media's path or URL, as set.
    public var mediaURL: String? { content.url }
    /// What the owner said the media is.
    public var kind: MediaKind? { content.kind }
    /// The thumbnail's path or URL, as set.
    public var thumbnailURL: String? { content.thumbnailURL }
    /// The thumbnail picture, when one was given as an image.
    public var thumbnailImage: RGBAImage? { content.thumbnailImage }
    /// The GIF shown while the button is held on a video that is not playing.
    public var previewGIFURL: String? { content.previewGIFURL }
    /// Whether a preview GIF is set.
    public var hasPreview: Bool { content.previewGIFURL != nil }

    /// Why the media failed, once it did.
    public var failure: MediaError? { session?.failure ?? content.unusable }
    /// What the decoder found, once open.
    public var info: MediaInfo? { session?.info }
    /// Whether the media moves (video, audio, animated picture) rather than being a still.
    public var isPlayable: Bool { info?.isPlayable ?? (kind == .video || kind == .audio) }
    /// Whether the media is playing now.
    public var isPlaying: Bool { session?.isPlaying ?? false }
    /// The playback position in seconds.
    public var position: Double { session?.position ?? 0 }
    /// Frames of the video skipped since it opened because a later one was already due: a
    /// machine too slow for the video shows as a count that keeps rising.
    public var droppedFrames: Int { session?.droppedFrames ?? 0 }
    /// The share of the media downloaded so far (0...1), as the track's buffered bar shows it;
    /// a web picture shown while it downloads is first drawn well before 1.
    public var bufferedFraction: Double { session?.player?.bufferedFraction ?? 0 }
    /// Zoom on top of the content mode's scale (1: as the mode says).
    public var zoom: Double { session?.transform.zoom ?? 1 }
    /// Shown at its own pixel size (the 1:1 half of the fit/1:1 toggle).
    public var nativeScale: Bool { session?.transform.nativeScale ?? false }
    /// The user's rotation on top of the media's own, in degrees clockwise.
    public var userRotation: Int { session?.transform.rotation ?? 0 }
    /// The preview GIF is showing (button held).
    public var isPreviewing: Bool { session?.small.isPreviewing ?? false }
    /// Whether the view is shrunk into the corner thumbnail.
    public var isMinimized: Bool { stage?.isMinimized ?? false }
    /// The scale its overlays are drawn at now: `settings.interfaceScale`, else the
    /// desktop's, else 1x.
    public var currentInterfaceScale: InterfaceScale {
        settings.interfaceScale ?? stage?.desktopScale ?? .one
    }
    /// Whether the view is presented fullscreen (or would be, once restored from the
    /// thumbnail); false in a window or embedded in a host window.
    public var isFullscreen: Bool {
        guard let s = stage, !s.window.isEmbedded else { return false }
        return s.placement.wantsFullscreen
    }

    /// Removes the media, keeping the options, title and details; the view can take other
    /// media after.
    public func resetMedia() {
        releaseSession()
        cancelPreload()
        content = Content(title: content.title, details: content.details)
    }

    /// Removes the media, the title and details, and puts every option back to its default.
    public func reset() {
        resetMedia()
        content = Content()
        settings = Settings()
        windowFacts = nil
        observers.removeAll()
    }

    /// Adds an observer that hears every callback besides the delegate.
    public func addObserver(_ o: MediaViewDelegate) { observers.append(o) }

    /// Calls `body` for the delegate and every observer.
    func notify(_ body: (MediaViewDelegate) -> Void) {
        if let d = delegate { body(d) }
        for o in observers { body(o) }
    }

    /// Starts opening and decoding (paused until presented), so presenting is instant.
    /// The queue calls it for the item after the current one.
    public func prepare() { open(firstLook: .cameraThumbnail) }

    /// Opens the media unless it is open; `firstLook` says what a photo may show meanwhile.
    private func open(firstLook: FirstLook.Allowed) {
        guard session == nil else { return }
        let kind = content.kind
        let onCached: @Sendable (String) -> Void = { [weak self] path in
            CacheManager.post { self?.didDownload(path, kind: kind) }
        }
        session = MediaSession(SessionSetup(content: content, settings: settings, window: windowFacts,
                                            wake: wake, onCached: onCached, firstLook: firstLook))
    }

    /// Prepares the view for a window like `window`, waking the loop with `wake` as it decodes.
    func prepare(for window: WindowFacts, wake: @escaping @Sendable () -> Void) {
        windowFacts = window
        self.wake = wake
        prepare()
    }

    /// Puts the view on `stage`, opening it if it was not prepared ahead; `lowPower` when
    /// the stage is the small thumbnail.
    func show(on stage: Stage, window: WindowFacts, wake: @escaping @Sendable () -> Void, lowPower: Bool) {
        if self.stage == nil, session?.decodedForAnotherProfile(than: window) == true { releaseSession() }
        self.stage = stage
        windowFacts = window
        self.wake = wake
        // Not opened ahead: the user is waiting, so a photo without a camera thumbnail shows
        // an eighth-size decode first.
        open(firstLook: .thumbnailOrEighth)
        session?.shown(in: window, at: MonotonicClock.seconds())
        session?.setLowPower(lowPower)
    }

    /// Takes the view off `stage` (it was dismissed there); a stage it already moved to keeps it.
    func leave(_ stage: Stage) {
        guard self.stage === stage else { return }
        self.stage = nil
        windowFacts?.desktopScale = nil
        session?.leftStage()
    }

    /// Takes the options of `other`: a dropped file plays like the one on screen.
    func takeOptions(of other: MediaView) {
        settings = other.settings
        sharedSettings = other.sharedSettings
    }

    /// Lets go of the session (threads, sound stream, pictures) but keeps the media, so the
    /// view can be presented again later, from the start.
    func releaseSession() {
        session?.close()
        session = nil
    }
}
