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
    /// The file's own tags (ID3, Vorbis comments, MP4 atoms), as FFmpeg reads them.
    public var title: String?
    /// The performer tag.
    public var artist: String?
    /// Clockwise degrees from the stream's display matrix, or a JPEG's EXIF orientation.
    public var rotation: Int
    /// Rates and channels, for the info panel.
    public var streams = StreamFacts()
    /// The album tag, which desktop media widgets show under the title.
    public var album: String?

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
