import FoundationEssentials
import MediaCore
import Web

/// The machinery behind `Player`, assembled from four stages in mpv's shape, each with its
/// own type, thread and state:
///
/// - `DemuxStage` (thread `mv-demux`) opens the source and reads packets;
/// - `VideoDecodeStage` (`mv-video`) decodes them into frames;
/// - `AudioDecodeStage` (`mv-audio`) decodes, stretches and plays the sound;
/// - `VideoScheduler` (the main thread) shows each frame when it is due.
///
/// Between them go values: packets, frames and end markers through bounded queues, seek
/// commands, and status snapshots. Seeks start a new generation (`SeekSerial`); everything
/// queued in an older one is dropped where it is met (ffplay's scheme), so no stale frame
/// or sample survives a seek. The threads hold the stages, never the `Player`, so a player
/// its owner drops is closed by its deinit.
final class PlayerEngine: @unchecked Sendable {
    // @unchecked: the stages are Sendable by their own locks and atomics; the scheduler
    // and the `volume`/`muted` copies are only touched by the thread that owns the player
    // (the main loop), as `Player` requires.
    typealias Phase = Player.Phase
    typealias FrameDecision = Player.FrameDecision

    let options: PlayerOptions
    let wake: @Sendable () -> Void
    let serial = SeekSerial()
    let threads = StageThreads()
    let demux: DemuxStage
    let video: VideoDecodeStage
    let sound: AudioDecodeStage
    let scheduler: VideoScheduler
    var volume: Double
    var isMuted: Bool
    /// Where the last seek goes, until the clock runs again from there: a position read
    /// in between (a resume point saved at quit, a widget) is the place asked for, not 0.
    var seekTarget: Double?

    /// Creates a player and starts opening `url` on its demux thread; `wake` is called from
    /// any thread whenever the main loop should look again.
    init(url: String, options: PlayerOptions, wake: @escaping @Sendable () -> Void) {
        FFmpegLog.quiet
        self.options = options
        self.wake = wake
        volume = options.volume
        isMuted = options.muted
        video = VideoDecodeStage(name: SourceOptions.displayName(url), displayProfile: options.displayProfile,
                                 serial: serial, wake: wake, onWarning: options.onWarning)
        let demux = DemuxStage(url: url, options: options, serial: serial, pictureFrames: video.frames, wake: wake)
        self.demux = demux
        sound = AudioDecodeStage(options: options, serial: serial, wake: wake)
        let video = video
        scheduler = VideoScheduler(frames: video.frames, demux: demux, audio: sound, serial: serial, options: options,
                                   onDrop: { video.frameDropped() })
        let (threads, sound) = (threads, sound)
        threads.spawn(name: "mv-demux") {
            demux.run { opened in
                // The decode stages start once the source is open, before it is announced.
                if let setup = opened.video {
                    threads.spawn(name: "mv-video") { video.run(setup, from: demux.videoPackets) }
                }
                if let setup = opened.audio {
                    threads.spawn(name: "mv-audio") { sound.run(setup, from: demux.audioPackets) }
                }
            }
        }
    }

    /// The opening state.
    var phase: Phase { demux.state.withLock { $0.phase } }

    /// The media description once open.
    var info: MediaInfo? { scheduler.info }

    /// A photo's small picture, offered while it opens.
    var firstLook: FirstLook? { demux.state.withLock { $0.firstLook } }

    /// A problem met after opening (a network error mid-stream, a damaged picture), if any.
    var decoderStopped: AVError? { video.stopped.withLock { $0 } ?? sound.stopped.withLock { $0 } ?? demux.sandboxStopped }
    var streamError: AVError? { demux.state.withLock { $0.readError } ?? video.failure.withLock { $0 } }

    /// Frames that were due but skipped because a later one was due too.
    var droppedFrames: Int { scheduler.dropped }

    /// How much of the source has arrived, 0...1 (1 for local files).
    var bufferedFraction: Double { Double(demux.bufferedPermille.load(ordering: .relaxed)) / 1000 }

    /// Whether sound is really playing (false with --no-audio or without PulseAudio).
    var hasAudioOutput: Bool { sound.isPlaying }

    /// The sound output, while there is one.
    var audio: AudioOutput? { sound.output }

    /// The playback position in seconds.
    var position: Double {
        guard let now = scheduler.clock.value(at: MonotonicClock.seconds()) else { return seekTarget ?? 0 }
        seekTarget = nil
        return now
    }

    var isPaused: Bool { scheduler.paused }

    /// Playing, but the next picture is late and none is queued (a slow download).
    var isStarving: Bool { scheduler.isStarving }

    /// The frame to show now, or how long to wait.
    func nextFrame() -> FrameDecision { scheduler.nextFrame() }

    /// Stops every thread and waits for them. Safe to call more than once.
    func close() {
        // Once only: a second caller must not wait for threads a first one already joined.
        guard demux.close() else { return }
        video.close()
        sound.close()
        // The demux thread may still start the decode threads while this waits for it.
        threads.joinAll()
        sound.release()
        demux.release()
    }
}
