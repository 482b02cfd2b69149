import MediaCore

/// Plays one source: opens it on threads of its own, hands the main loop each picture when
/// it is due (`nextFrame()`) and plays the sound through PulseAudio.
///
/// The work is done by a `PlayerEngine` whose threads hold its stages, not this object, so
/// dropping the last reference to a player stops its threads and its sound (deinit closes
/// it), as dropping a file handle closes the file. `close()` does the same earlier.
/// Everything but `close()` is for the thread that owns the player (the main loop), so
/// the type is not `Sendable`; other threads reach the player only through its engine.
public final class Player {
    let engine: PlayerEngine

    /// The opening state the main thread sees.
    public enum Phase: Sendable, Equatable {
        case opening
        case ready(MediaInfo)
        case failed(AVError)
    }

    /// What the main loop should do about pictures now.
    public enum FrameDecision {
        /// Show this frame now.
        case show(VideoFrame)
        /// Nothing is due for this many seconds.
        case wait(Double)
        /// Nothing to do until the player wakes the loop.
        case idle
        /// Every picture and sample has been presented.
        case finished
    }

    /// Creates a player and starts opening `url` on its demux thread; `wake` is called from
    /// any thread whenever the main loop should look again.
    public init(url: String, options: PlayerOptions, wake: @escaping @Sendable () -> Void) {
        engine = PlayerEngine(url: url, options: options, wake: wake)
    }

    deinit { engine.close() }

    /// The opening state.
    public var phase: Phase { engine.phase }
    /// The media description once open.
    public var info: MediaInfo? { engine.info }
    /// A photo's small picture to show while it is still opening (`PlayerOptions.firstLook`).
    public var firstLook: FirstLook? { engine.firstLook }
    /// A problem met after opening (a network error mid-stream), if any.
    public var streamError: AVError? { engine.streamError }
    /// Why the sandboxed decoder of the pictures stopped (crashed, killed by the sandbox,
    /// hung), once it has: the item cannot go on. Nil while it decodes, or in this process.
    public var decoderStopped: AVError? { engine.decoderStopped }
    /// Frames that were due but skipped because a later one was due too.
    public var droppedFrames: Int { engine.droppedFrames }
    /// How much of the source has arrived, 0...1 (1 for local files).
    public var bufferedFraction: Double { engine.bufferedFraction }
    /// Whether sound is really playing (false with --no-audio or without PulseAudio).
    public var hasAudioOutput: Bool { engine.hasAudioOutput }
    /// The playback position in seconds.
    public var position: Double { engine.position }
    /// Playing, but the next picture is late and none is queued (a slow download).
    public var isStarving: Bool { engine.isStarving }
    public var isPaused: Bool { engine.isPaused }
    public var volume: Double { engine.volume }
    public var isMuted: Bool { engine.isMuted }

    /// The frame to show now, or how long to wait; see `FrameDecision`.
    public func nextFrame() -> FrameDecision { engine.nextFrame() }
    public func setPaused(_ paused: Bool) { engine.setPaused(paused) }
    /// Seeks to `seconds`; `exact` starts picture and sound at the target itself rather
    /// than at the keyframe before it.
    public func seek(to seconds: Double, exact: Bool = false) { engine.seek(to: seconds, exact: exact) }
    /// Decodes more cheaply (no deblocking) while the picture is shown small.
    public func setLowPower(_ on: Bool) { engine.setLowPower(on) }
    /// Volume 0...1 and mute, set on the stream in the sound server.
    public func setVolume(_ volume: Double, muted: Bool) { engine.setVolume(volume, muted: muted) }
    /// How fast it plays: the clock runs at this speed and the sound keeps its pitch.
    public var speed: PlaybackSpeed { engine.speed }
    /// Plays at `speed` from now on, from where it is.
    public func setSpeed(_ speed: PlaybackSpeed) { engine.setSpeed(speed) }
    /// Pauses (if playing) and shows the next frame (`forward`) or the one before; false
    /// when there are no frames to step through (a still, sound only).
    @discardableResult
    public func stepFrame(forward: Bool) -> Bool { engine.stepFrame(forward: forward) }
    /// Stops every thread and waits for them. Safe to call more than once, from any thread.
    public func close() { engine.close() }
}
