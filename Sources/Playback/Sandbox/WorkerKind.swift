/// What a worker is made ready for before it is shut off from files.
///
/// Fonts for SVG text and the set-up of libheif, libavif and libjxl cost a worker's start
/// about as much again as the rest of it; a photo needs none of them, so the worker for the
/// JPEG a user opens first is not made to wait for them. A worker of each kind is started
/// when a picture first needs it and then reused.
public enum WorkerKind: String, Sendable, CaseIterable {
    /// JPEG, PNG, WebP and the still formats FFmpeg reads.
    case photos
    /// JPEG photos through libjpeg-turbo alone. FFmpeg's libraries take 30 ms of a
    /// worker's start to load and a JPEG needs none of them, so the photo a user opens first
    /// comes that much sooner; what libjpeg declines (CMYK, 12-bit, damage it cannot get past)
    /// it hands back, and a photos worker decodes it.
    case jpegs
    /// SVG, AVIF, HEIC and JPEG XL: libraries that read files when they first draw or decode.
    case drawings
    /// A video's pictures, or a sound stream: FFmpeg's decoders, one stream per worker.
    case media
    /// A video's or song's container: FFmpeg's demuxers, one file per worker.
    case containers
    /// A player's subtitles drawn: libass with HarfBuzz and FreeType. The one kind that
    /// may read files after its start: the fonts, and nothing else (Landlock).
    case subtitles

    /// The variables through which fontconfig finds a user's own fonts (`~/.fonts`,
    /// `$XDG_DATA_HOME/fonts`): only the subtitles worker is given them.
    public static let fontEnvironment = ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"]
    /// The variable naming the kind of worker the zygote is asked for first, which it warms
    /// up for before it says it is ready.
    public static let zygoteFirstVariable = "MEDIAVIEW_ZYGOTE_FIRST"

    /// The kind that decodes a still starting with `head` for the screen: a JPEG's own
    /// worker, else the one `forStill` names.
    static func forDecode(_ head: [UInt8], name: String) -> WorkerKind {
        head.starts(with: StillFile.jpeg) ? .jpegs : forStill(head, name: name)
    }

    /// The kind a still starting with `head` needs.
    static func forStill(_ head: [UInt8], name: String) -> WorkerKind {
        if head.starts(with: StillFile.jpeg) || head.starts(with: StillFile.png) { return .photos }
        switch PictureFormat.sniff(Array(head.prefix(PictureFormat.headSize)), name: name) {
        case .avif?, .heif?, .jxl?, .svg?: return .drawings
        default: return .photos
        }
    }
}
