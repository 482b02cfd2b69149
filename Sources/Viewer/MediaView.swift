import Dispatch
import FoundationEssentials
import Glibc
import Playback
import Windowing

/// A view that shows one image, animated GIF, video or audio item: the desktop form of the
/// seed's `MediaView`.
///
/// Set media with the `set...` calls, queue the view on `MediaQueue.shared`, and it is
/// presented in its own window (or inside a foreign one). All of it lives on the main
/// thread, as UIKit views do.
@MainActor
public final class MediaView {
    /// What the owner said the media is; the decoder decides what it really is.
    public enum MediaKind: String, Sendable { case image, video, gif, audio }
    public enum SwipeMode: String, Sendable { case none, minimize, dismiss }
    public enum ContentMode: String, Sendable { case aspectFit, aspectFill }

    /// Receives the seed's callbacks. Held weakly, as delegates are.
    public weak var delegate: MediaViewDelegate?
    /// Extra observers (the program's event log); held strongly by design, removed by reset.
    var observers: [MediaViewDelegate] = []

    // MARK: Options, with the seed's defaults unless a desktop reason says otherwise.
    public var shouldAutoPlayAfterPresentation = true
    public var allowLooping = false
    public var shouldDismissAfterFinishedPlaying = false
    public var shouldShowTrack = true
    public var shouldDisplayRemainingTime = false
    public var trackFont: String?
    public var themeColor: Color = .defaultTheme
    public var contentMode: ContentMode = .aspectFit
    public var videoAspectFit = false
    public var swipeMode: SwipeMode = .none
    public var shouldDisplayFullscreen = false
    public var isFileFromDirectory = false
    public var topBuffer = 0
    public var bottomBuffer = 0
    /// Height over width of the minimized thumbnail; clamped to [9/16, 16/9].
    public var minimizedAspectRatio: Double = 9.0 / 16.0 {
        didSet { minimizedAspectRatio = min(16.0 / 9.0, max(9.0 / 16.0, minimizedAspectRatio)) }
    }
    /// Thumbnail width as a share of the monitor's width; default 1/3 on the desktop.
    public var minimizedWidthRatio: Double = 1.0 / 3.0
    public var customPlayButton: RGBAImage?
    public var customFailButton: RGBAImage?
    public var customMusicButton: RGBAImage?
    /// The close button may only hide when a swipe can dismiss the view instead.
    public var shouldHideCloseButton = false
    public var shouldHidePlayButton = false
    /// How long a still stays when the queue advances by itself.
    public var imageDuration: Double = 5
    /// Playback settings handed to the player (sound, pixel budget, timeouts).
    public var playerOptions = PlayerOptions()
    // Caching (issue 5; the rest is in CacheManager.swift).
    /// Copy web video and audio into the disk cache while it streams (no second download).
    public var shouldCacheStreamedMedia = true
    /// Download web video and audio into the cache as soon as the view is queued.
    public var shouldPreloadPlayableMedia = false
    var preloader: Downloader?

    public internal(set) var title: String?
    public internal(set) var details: String?

    // MARK: Media state.
    public internal(set) var mediaURL: String?
    public internal(set) var kind: MediaKind?
    public internal(set) var thumbnailURL: String?
    /// A failure found while preparing ahead, told when the view is presented.
    var pendingFailure: MediaError?
    /// Why the media failed, once it did.
    public internal(set) var failure: MediaError?
    /// What the decoder found, once open.
    public var info: MediaInfo? { player?.info }
    var player: Player?
    var lastFrame: VideoFrame?
    // A still decoded small for speed, decoded again at full size once shown larger
    // (MediaView+Detail).
    var detailPlayer: Player?
    var detailFrame: VideoFrame?
    var wantsDetail = false
    var detailTried = false
    /// Zoom on top of the content mode's scale (1: as the mode says).
    public internal(set) var zoom: Double = 1
    /// Shown at its own pixel size (the 1:1 half of the fit/1:1 toggle).
    public internal(set) var nativeScale = false
    /// How far the zoomed picture was moved, in window pixels.
    var pan: (x: Double, y: Double) = (0, 0)
    /// User rotation on top of the media's own, in degrees clockwise.
    public internal(set) var userRotation = 0
    var loadCompletion: ((MediaView) -> Void)?
    var announcedReady = false
    /// play() came before the kind was known; didPlayMedia follows once it is.
    var playNoticePending = false
    var finishedAt: Double?
    var loops = 0
    // Thumbnails and the preview GIF (MediaView+Thumbnails).
    /// A picture shown before playback starts, and for audio.
    public internal(set) var thumbnailImage: RGBAImage?
    /// A GIF shown while the mouse button is held on a video that is not playing.
    public internal(set) var previewGIFURL: String?
    var thumbPlayer: Player?
    var thumbFrame: VideoFrame?
    var previewPlayer: Player?
    var previewFrame: VideoFrame?
    /// The preview GIF is showing (button held).
    public internal(set) var isPreviewing = false
    /// Playback was started since the media was set, so the thumbnail gives way.
    var hasStartedPlaying = false
    /// When the view was last put on screen (monotonic seconds).
    var firstShownAt: Double = 0
    var tempFiles: [String] = []
    /// Made on first draw and dropped with the player: a scaler owns swscale contexts and
    /// their worker threads, which a dismissed view kept in the queue's history must not.
    var scaler: Scaler?
    var wake: @Sendable () -> Void = {}

    public init() {}

    /// Frees the player's threads and any temporary files.
    isolated deinit {
        player?.close()
        thumbPlayer?.close()
        previewPlayer?.close()
        preloader?.cancel()
        for f in tempFiles { unlink(f) }
    }

    public func setTitle(_ title: String?, details: String? = nil) {
        self.title = title
        self.details = details
    }

    /// Whether the media moves (video, audio, animated picture) rather than being a still.
    public var isPlayable: Bool { info?.isPlayable ?? (kind == .video || kind == .audio) }

    public var isPlaying: Bool { player.map { !$0.isPaused } ?? false }

    /// Removes the media, keeping the configuration; the view can take other media after.
    public func resetMedia() {
        player?.close()
        player = nil
        lastFrame = nil
        mediaURL = nil
        thumbnailURL = nil
        kind = nil
        failure = nil
        pendingFailure = nil
        scaler = nil
        announcedReady = false
        finishedAt = nil
        loops = 0
        userRotation = 0
        zoom = 1
        nativeScale = false
        pan = (0, 0)
        resetThumbnails()
        cancelPreload()
        for f in tempFiles { unlink(f) }
        tempFiles.removeAll()
    }

    /// Removes the media and puts every option back to its default.
    public func reset() {
        resetMedia()
        let fresh = MediaView()
        shouldAutoPlayAfterPresentation = fresh.shouldAutoPlayAfterPresentation
        allowLooping = fresh.allowLooping
        shouldDismissAfterFinishedPlaying = fresh.shouldDismissAfterFinishedPlaying
        shouldShowTrack = fresh.shouldShowTrack
        shouldDisplayRemainingTime = fresh.shouldDisplayRemainingTime
        trackFont = nil
        themeColor = fresh.themeColor
        contentMode = fresh.contentMode
        videoAspectFit = false
        swipeMode = fresh.swipeMode
        shouldDisplayFullscreen = false
        isFileFromDirectory = false
        topBuffer = 0
        bottomBuffer = 0
        minimizedAspectRatio = fresh.minimizedAspectRatio
        minimizedWidthRatio = fresh.minimizedWidthRatio
        customPlayButton = nil
        customFailButton = nil
        customMusicButton = nil
        shouldHideCloseButton = false
        shouldHidePlayButton = false
        shouldCacheStreamedMedia = true
        shouldPreloadPlayableMedia = false
        title = nil
        details = nil
        observers.removeAll()
    }

    /// Calls `body` for the delegate and every observer.
    func notify(_ body: (MediaViewDelegate) -> Void) {
        if let d = delegate { body(d) }
        for o in observers { body(o) }
    }

    /// Adds an observer that hears every callback besides the delegate.
    public func addObserver(_ o: MediaViewDelegate) { observers.append(o) }
}
