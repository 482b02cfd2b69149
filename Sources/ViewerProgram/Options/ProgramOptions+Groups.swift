import Playback
import Viewer

/// The groups of `ProgramOptions`, one per section of `--help`, and the small values
/// their options take.
extension ProgramOptions {
    /// Options that print something and exit, and the bindings file.
    public struct Information: Equatable, Sendable {
        /// `--help` (or `-h`).
        public var showHelp = false
        /// `--version`.
        public var showVersion = false
        /// `--list-bindings`: print the active key table.
        public var listBindings = false
        /// Print the manual page (roff) and exit.
        public var showManual = false
        /// Replaces the user's input.conf (the bundled defaults still load beneath it).
        public var inputConfPath: String?

        /// Nothing to print: the program plays.
        public init() {}
    }

    /// Options for scripts, tests and benchmarks.
    public struct Scripts: Equatable, Sendable {
        /// Quit when the queue is done.
        public var autoexit = false
        /// How long a still image stays with `--autoexit`, in seconds.
        public var imageDuration: Double = 5
        /// Quit after this many frames were shown.
        public var frameLimit: Int?
        /// Play sound (`--no-audio` turns it off).
        public var audioEnabled = true
        /// Decode and show as fast as possible, without sound, and print the figures.
        public var benchmark = false
        /// Event log destination; `-` is standard output.
        public var eventsPath: String?

        /// Interactive: no quitting by itself, no log.
        public init() {}
    }

    /// What folders and `--browse-folder` turn into queue items.
    public struct Folders: Equatable, Sendable {
        /// Descend into subfolders (`-r`).
        public var recursive = false
        /// The order of a folder's files (`--sort`).
        public var sort: FolderListing.Order = .natural
        /// Last first (`--reverse`).
        public var reversed = false
        /// A single file argument opens with the rest of its folder around it, as a file
        /// manager's "open" expects; a plain command line queues exactly what it is given.
        public var browseFolder = false

        /// Folders listed flat, in natural order; files queued as given.
        public init() {}
    }

    /// Where the media is presented.
    public struct Window: Equatable, Sendable {
        /// A normal window instead of fullscreen.
        public var windowed = false
        /// The fullscreen window becomes the thumbnail when another application takes the
        /// focus while a video plays (`--minimize-on-blur`).
        public var minimizeOnBlur = false
        /// When the pointer hides over a playing video or a fullscreen item (`--cursor-autohide`).
        public var pointerHiding = PointerHiding.withControls
        /// The window's size and place.
        public var geometry: Geometry?
        /// An X11 window to live inside (`--wid`), as mpv does.
        public var parentWindow: UInt32?

        /// Fullscreen on the monitor that holds the pointer's window.
        public init() {}
    }

    /// How each item plays.
    public struct Playback: Equatable, Sendable {
        /// Replay each item when it ends.
        public var loop = false
        /// Play as soon as presented (`--no-autoplay` waits for a click or key).
        public var autoplay = true
        /// Move on when an item ends (wins over `loop`).
        public var dismissAfterFinish = false
        /// Volume in percent, 0-100.
        public var volume = 100
        /// Start muted.
        public var muted = false
        /// Playback speed, 0.25-4 (1 is the media's own pace).
        public var speed = 1.0
        /// Subtitle files for every video (`--sub-file`, as often as wanted).
        public var subtitleFiles: [String] = []
        /// Offer subtitle files found beside a video with its base name.
        public var subtitleAuto = true
        /// Draw the subtitles (`v` toggles them while playing).
        public var subtitlesVisible = true
        /// Whole and letterboxed, or covering the view and cropped.
        public var contentMode: ContentMode = .fit
        /// Video stays whole even when `contentMode` is fill.
        public var videoAspectFit = false
        /// Pictures smaller than the window: at 100 % (`.small`) or enlarged (`.always`).
        public var pictureFit: MediaView.PictureFit = .small

        /// Autoplay at full volume and normal speed, subtitles found and shown.
        public init() {}
    }

    /// The thumbnail a drag down shrinks the item into.
    public struct Minimizing: Equatable, Sendable {
        /// What a left-button drag on the presented view does.
        public var swipeMode: SwipeMode = .minimize
        /// Height / width of the thumbnail, already clamped to [9/16, 16/9].
        public var aspectRatio: Double = 9.0 / 16.0
        /// Fraction of the monitor's width the thumbnail takes (clamped to the monitor later).
        public var widthRatio: Double = 1.0 / 3.0
        /// Forget the thumbnail's remembered place and size.
        public var reset = false
        /// The thumbnail shows on every workspace.
        public var sticky = true
        /// Pixels kept free for a top panel.
        public var topBuffer = 0
        /// Pixels kept free under the thumbnail.
        public var bottomBuffer = 0

        /// A landscape thumbnail a third of the monitor wide, on every workspace.
        public init() {}
    }

    /// The overlays drawn over the media.
    public struct Look: Equatable, Sendable {
        /// Nil keeps the view's own theme colour.
        public var themeColor: RGBColor?
        /// On by default on the desktop, where a mouse user expects a seek bar; it hides
        /// itself after inactivity, so it costs nothing while watching.
        public var showTrack = true
        /// Time left instead of the duration.
        public var remainingTime = false
        /// The track's time label font family; nil is sans-serif.
        public var trackFont: String?
        /// The overlays' scale in percent (100, 150, 200); nil follows the desktop.
        public var uiScalePercent: Int?
        /// Hovering a video's track shows a picture of the hovered time.
        public var trackPreviews = true
        /// Title shown at the top.
        public var title: String?
        /// Details line under the title.
        public var details: String?
        /// No close button.
        public var hideCloseButton = false
        /// No play indicator.
        public var hidePlayButton = false
        /// Picture files replacing the play, fail and music indicators.
        public var playIconPath: String?
        /// See `playIconPath`.
        public var failIconPath: String?
        /// See `playIconPath`.
        public var musicIconPath: String?

        /// The built-in look, scaled as the desktop says.
        public init() {}
    }

    /// The media cache, the network and the size limits.
    public struct Cache: Equatable, Sendable {
        /// Nil is `$XDG_CACHE_HOME/mediaview`.
        public var directory: String?
        /// Read and write the cache.
        public var enabled = true
        /// Download queued video and audio ahead.
        public var preload = false
        /// Largest image, in pixels, that is decoded; bigger ones are refused before allocation.
        public var maxPixels = 100_000_000
        /// Network timeout in seconds.
        public var timeout: Double = 15
        /// Where stills, local video's previews and zoom tiles are decoded: a sandboxed worker (auto, strict) or here (off).
        public var sandbox = SandboxMode.automatic

        /// Cache on, no preloading, 100 MP, 15 s.
        public init() {}
    }

    /// `WxH[+X+Y]`: a window size and, optionally, where its top-left corner goes.
    public struct Geometry: Equatable, Sendable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Screen coordinates of the top-left corner; may be negative on multi-monitor setups.
        public var x: Int?
        /// See `x`.
        public var y: Int?

        /// A size, and a place when both coordinates are given.
        public init(width: Int, height: Int, x: Int? = nil, y: Int? = nil) {
            (self.width, self.height, self.x, self.y) = (width, height, x, y)
        }
    }

    /// What a left-button drag on the presented view does.
    public enum SwipeMode: String, Equatable, Sendable, CaseIterable {
        case none, minimize, dismiss
    }

    /// How media fills the view: whole and letterboxed, or covering it and cropped.
    public enum ContentMode: String, Equatable, Sendable, CaseIterable {
        case fit, fill
    }

    /// An opaque colour from `#rgb`, `#rrggbb` or a CSS name.
    public struct RGBColor: Equatable, Sendable {
        /// Red, 0-255.
        public var red: UInt8
        /// Green, 0-255.
        public var green: UInt8
        /// Blue, 0-255.
        public var blue: UInt8

        /// A colour from its three channels.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            (self.red, self.green, self.blue) = (red, green, blue)
        }

        /// The colour as a 32-bit BGRX pixel, the layout of `PixelBuffer`.
        public var pixel: UInt32 {
            UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
        }
    }
}
