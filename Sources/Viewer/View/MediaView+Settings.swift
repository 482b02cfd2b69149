import Playback
import Windowing

extension MediaView {
    /// What the owner said the media is; the decoder decides what it really is.
    public enum MediaKind: String, Sendable { case image, video, gif, audio }

    /// What a downward drag (or a drag of the thumbnail) does.
    public enum SwipeMode: String, Sendable {
        /// Only the close button, a key or code dismisses the view.
        case none
        /// Drag down to shrink into the corner thumbnail; drag that right to throw it away.
        case minimize
        /// Drag down to throw the view away.
        case dismiss
    }

    /// How the picture fills the view, with UIKit's names.
    public enum ContentMode: String, Sendable {
        /// The whole picture, with black bars where the shapes differ.
        case scaleAspectFit
        /// The whole view, cropping what does not fit.
        case scaleAspectFill
    }

    /// How a picture smaller than the view is shown.
    public enum PictureFit: String, Sendable, CaseIterable {
        /// At its own size (100 %), centred, as photo viewers show it: a 320x240 GIF is not
        /// blown up into blocks. Larger pictures still shrink to fit, and drawings (SVG),
        /// sharp at any size, still fill.
        case small
        /// Always scaled to fill the view's width or height, small pictures too.
        case always
    }

    /// Every option a view has, with the names and defaults MediaView users know.
    ///
    /// The options are one value so that `reset()` is one assignment and copying a view's
    /// configuration to another is `b.settings = a.settings`. Each is also a property of
    /// the view itself: `view.themeColor = .red`.
    public struct Settings {
        /// Starts playing as soon as the view is presented.
        public var shouldAutoPlayAfterPresentation = true
        /// Plays again from the start after the end.
        public var allowLooping = false
        /// Dismisses the view when its video or audio ends (and wins over `allowLooping`).
        /// When false, a finished view stays on screen until the user moves on.
        public var shouldDismissAfterFinishedPlaying = false
        /// Shows the progress track for video and audio.
        public var shouldShowTrack = true
        /// Hovering the track of a video shows a picture of the time under the pointer.
        public var shouldShowTrackPreviews = true
        /// The width of those pictures at 1x, in pixels (64 to 480); drawn larger at a
        /// larger `interfaceScale`, and smaller where the minimized thumbnail has no room.
        public var trackPreviewWidth = 160 {
            didSet { trackPreviewWidth = max(64, min(480, trackPreviewWidth)) }
        }
        /// How large the overlays (track, labels, buttons, messages, hit areas) are drawn:
        /// nil (the default) follows the desktop (`Xft.dpi`, else the monitor's resolution);
        /// `.one`, `.oneAndHalf` or `.two` fixes it.
        public var interfaceScale: InterfaceScale?
        /// The right-hand time label counts down what is left instead of the duration.
        public var shouldDisplayRemainingTime = false
        /// The font family of the track's labels (fontconfig name); nil for the default.
        public var trackFont: String?
        /// The colour of the track, the play button and the fail indicator.
        public var themeColor: Color = .defaultTheme
        /// How pictures and video fill the view.
        public var contentMode: ContentMode = .scaleAspectFit
        /// Video keeps its whole picture even when `contentMode` fills.
        public var videoAspectFit = false
        /// Whether pictures (stills and animations, not video) smaller than the view are
        /// enlarged to fit it; `cycle fit` (`F`) switches it for the whole queue.
        public var pictureFit: PictureFit = .small
        /// What a drag does.
        public var swipeMode: SwipeMode = .none
        /// A view inside a host window grows to fullscreen when clicked.
        public var shouldDisplayFullscreen = false
        /// The media comes from a local folder rather than the web (informational).
        public var isFileFromDirectory = false
        /// Space kept free at the top for the title and close button (a desktop's top bar).
        public var topBuffer: EdgeBuffer = 0
        /// Space kept free below the minimized thumbnail (a panel or task bar).
        public var bottomBuffer: EdgeBuffer = 0
        /// Height over width of the minimized thumbnail, kept within 9:16 and 16:9.
        public var minimizedAspectRatio: AspectRatio = .landscapeRatio {
            didSet { minimizedAspectRatio = minimizedAspectRatio.clamped }
        }
        /// Thumbnail width as a share of the monitor's width: half, as MediaView's (the
        /// program `mediaview` sets 1/3, which suits a wide desktop monitor better).
        public var minimizedWidthRatio: Double = 0.5
        /// The minimized thumbnail shows on every workspace, as picture-in-picture does.
        public var minimizedOnAllWorkspaces = true
        /// A picture drawn instead of the built-in play button.
        public var customPlayButton: RGBAImage?
        /// A picture drawn instead of the built-in fail indicator.
        public var customFailButton: RGBAImage?
        /// A picture drawn instead of the built-in music indicator for audio.
        public var customMusicButton: RGBAImage?
        /// Hides the close button; only honoured when a swipe can dismiss the view instead.
        public var shouldHideCloseButton = false
        /// Hides the play button over paused video and audio.
        public var shouldHidePlayButton = false
        /// Draws the chosen subtitle track over the video (`v` toggles it).
        public var showsSubtitles = true
        /// How long a still stays when the queue advances by itself, in seconds.
        public var imageDuration: Double = 5
        /// Playback settings handed to the player (sound, volume, pixel budget, timeouts).
        public var playerOptions = PlayerOptions()
        /// Copies web video and audio into the disk cache while it streams.
        public var shouldCacheStreamedMedia = true
        /// Downloads web video and audio into the cache as soon as the view is queued.
        public var shouldPreloadPlayableMedia = false
        /// Where presenting grows from and dismissing shrinks back to, in the coordinates of
        /// the host window the app draws (converted to the screen with that window's place).
        public var originRect: Rect?
        /// As `originRect`, already in screen coordinates.
        public var originRectConverted: Rect?
        /// The view will not be presented again once dismissed, so a still's decoded
        /// picture is let go at once instead of kept for going back to it.
        public var imageViewNotReused = false
        /// Grows from the view's own place in its host window (a `--wid` embed) without
        /// naming a rectangle; wins over both origin rectangles.
        public var shouldPresentFromOriginRect = false

        /// The defaults.
        public init() {}
    }
}

/// Height over width of the minimized thumbnail: a preset or any number, as `6.0 / 5.0`.
public struct AspectRatio: Equatable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// Height divided by width.
    public var heightOverWidth: Double

    /// A ratio of height over width; not finite or not positive counts as landscape.
    public init(_ heightOverWidth: Double) {
        self.heightOverWidth = heightOverWidth.isFinite && heightOverWidth > 0 ? heightOverWidth : 9.0 / 16.0
    }
    /// A ratio written as a number: `minimizedAspectRatio = 0.75`.
    public init(floatLiteral value: Double) { self.init(value) }
    /// A ratio written as a whole number: `minimizedAspectRatio = 1`.
    public init(integerLiteral value: Int) { self.init(Double(value)) }

    /// 16:9, wider than tall: the default.
    public static let landscapeRatio = AspectRatio(9.0 / 16.0)
    /// As wide as tall.
    public static let square = AspectRatio(1)
    /// 9:16, taller than wide.
    public static let portrait = AspectRatio(16.0 / 9.0)

    /// A ratio written as a fraction: `minimizedAspectRatio = (6.0 / 5.0)`.
    public static func / (lhs: AspectRatio, rhs: AspectRatio) -> AspectRatio {
        AspectRatio(lhs.heightOverWidth / rhs.heightOverWidth)
    }

    /// Within 9:16 and 16:9, the shapes a thumbnail can usefully take.
    var clamped: AspectRatio {
        AspectRatio(min(16.0 / 9.0, max(9.0 / 16.0, heightOverWidth)))
    }
}

/// Space kept free at an edge of the screen, in pixels: a number or a desktop preset.
public struct EdgeBuffer: Equatable, Sendable, ExpressibleByIntegerLiteral {
    /// The space in pixels, never negative.
    public var pixels: Int

    /// A space of `pixels` (negative counts as none).
    public init(_ pixels: Int) { self.pixels = max(0, pixels) }
    /// A space written as a number: `topBuffer = 20`.
    public init(integerLiteral value: Int) { self.init(value) }

    /// A status bar's height, 20 as MediaView's (a desktop's top bar: GNOME Shell's is
    /// about 32; give that number when it matters).
    public static let statusBarBuffer = EdgeBuffer(20)
    /// A navigation bar's (toolbar's) height, 44.
    public static let navigationBarBuffer = EdgeBuffer(44)
    /// A status bar and a navigation bar under it, 64.
    public static let statusAndNavigationBuffer = EdgeBuffer(64)
    /// A tab bar's height, 49 (a desktop's bottom panel is often 48).
    public static let tabBarBuffer = EdgeBuffer(49)
}

extension MediaView {
    /// The view's options, read and written as the view's own properties:
    /// `view.swipeMode = .minimize`.
    public subscript<Value>(dynamicMember option: WritableKeyPath<Settings, Value>) -> Value {
        get { settings[keyPath: option] }
        set { settings[keyPath: option] = newValue }
    }
}
