import MediaCore
import Web

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
    /// How the desktop's mixer files the sound (its `media.role`).
    public var soundRole = SoundRole.media
    /// Whether pausing corks the sound stream or keeps it running silent.
    public var pausedStream = PausedStream.corked
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
    /// Where still pictures (local files and web pictures), animations, videos and songs, a
    /// local video's track previews and a zoomed photo's tiles are decoded: a sandboxed
    /// worker process unless off. The workers are forked from one warm process and
    /// re-parented to the app, which becomes a subreaper (docs/sandbox.md, "the zygote").
    public var sandbox = SandboxMode.automatic
    /// Which first look (`Player.firstLook`) a JPEG photo offers before its full decode.
    public var firstLook = FirstLook.Allowed.none
    public init() {}

    /// Where large scratch files go (a zoom's tile pyramid): the cache's own temporary
    /// directory when there is a cache, else nil (the system's).
    public var scratchDirectory: String? { source.cache.map { $0.root + "/temp" } }
}
