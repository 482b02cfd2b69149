/// What an opened source turned out to be.
public struct MediaInfo: Sendable, Equatable {
    /// The four kinds the viewer distinguishes.
    public enum Kind: String, Sendable {
        /// One picture (JPEG, PNG, WebP, BMP, TIFF, or a single-frame GIF).
        case image
        /// An animated picture that loops (GIF, APNG).
        case animated
        /// Moving pictures, with or without sound.
        case video
        /// Sound only, perhaps with cover art.
        case audio
    }

    public var kind: Kind
    /// Seconds, when the container knows.
    public var duration: Double?
    /// Picture size as shown (rotation and sample aspect applied); 0 when there is none.
    public var width: Int
    public var height: Int
    public var hasAudio: Bool
    /// Whether the only picture is cover art.
    public var hasCoverArt: Bool
    public var formatName: String
    public var videoCodec: String?
    public var audioCodec: String?
    public var title: String?
    public var artist: String?
    /// Clockwise degrees from the stream's display matrix, or a JPEG's EXIF orientation.
    public var rotation: Int
    /// Rates and channels, for the info panel.
    public var streams = StreamFacts()

    /// What the streams say about themselves; nil where the container does not say.
    public struct StreamFacts: Sendable, Equatable {
        /// The container's own name ("QuickTime / MOV", "Matroska / WebM").
        public var container: String?
        /// Frames a second of the video.
        public var frameRate: Double?
        /// Bits a second of the whole file.
        public var overallBitRate: Int?
        /// Bits a second of the video stream.
        public var videoBitRate: Int?
        /// Bits a second of the sound stream.
        public var audioBitRate: Int?
        /// Sound channels (1 mono, 2 stereo).
        public var channels: Int?
        /// Sound samples a second.
        public var sampleRate: Int?
        /// Nothing known yet.
        public init() {}
    }
    /// The container's chapters, in order of their start.
    public var chapters: [Chapter] = []
    /// Drawn from vectors (SVG): `width` x `height` is its natural size, and it is drawn
    /// anew, sharp, at whatever size it is shown (`PlayerOptions.targetSize`).
    public var isScalable = false

    /// Whether it has a timeline a person can play, pause and seek.
    public var isPlayable: Bool { kind == .video || kind == .audio }
}

/// A chapter of a video or audio file: where it starts and what it is called.
public struct Chapter: Sendable, Equatable {
    /// Seconds from the start of the media.
    public var start: Double
    /// The chapter's title, when the file names it.
    public var title: String?

    /// A chapter starting at `start` seconds.
    public init(start: Double, title: String?) {
        self.start = start
        self.title = title
    }
}

/// The tunables of one player.
public struct PlayerOptions: Sendable {
    public var source = SourceOptions()
    /// Decode audio and play it through PulseAudio.
    public var audio = true
    /// Show frames as fast as they decode, ignoring timestamps (benchmarks).
    public var untimed = false
    /// Start paused (a view with `shouldAutoPlayAfterPresentation == false`).
    public var startPaused = false
    /// Initial volume 0...1 and mute.
    public var volume: Double = 1
    public var muted = false
    /// How fast to play; the sound keeps its pitch.
    public var speed = PlaybackSpeed.normal
    /// Name shown in the desktop's mixer.
    public var mediaName = "media"
    /// The area the picture will be shown in, if known: a still much larger than it is
    /// decoded at reduced resolution (JPEG's `lowres`), which is several times faster.
    /// A vector picture (SVG) is drawn to fit it exactly.
    public var targetSize: (width: Int, height: Int)?
    /// The display's ICC colour profile (as published on the X root window), which
    /// pictures are converted to; nil: the display is taken to be sRGB.
    public var displayProfile: [UInt8]?
    /// Subtitle files to offer as tracks, before any found beside the media.
    public var subtitleFiles: [String] = []
    /// Offers `.srt`, `.ass`, `.ssa` and `.vtt` files beside a local media file with its
    /// base name (`film.mkv`: `film.srt`, `film.en.srt`) as subtitle tracks.
    public var findsSubtitleFiles = true
    /// Where a one-line problem that does not stop playback goes (a subtitle file that
    /// cannot be read); standard error unless the owner says otherwise.
    public var onWarning: @Sendable (String) -> Void = { StandardError.write($0) }
    public init() {}
}
