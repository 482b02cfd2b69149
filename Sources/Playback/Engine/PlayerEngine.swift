import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// The machinery behind `Player`: a demux thread feeds decode threads through bounded
/// queues, audio goes to PulseAudio, and the main thread asks `nextFrame()` which picture
/// to show when.
///
/// Seeks bump a serial number; everything queued with an older serial is dropped where it
/// is met (ffplay's scheme), so no stale frame or sample survives a seek. The threads hold
/// the engine, never the `Player`, so a player its owner drops is closed by its deinit.
final class PlayerEngine: @unchecked Sendable {
    // @unchecked: `shared` is behind a Mutex, counters are atomics, the queues lock
    // themselves, and the `main*` properties are only touched by the thread that owns the
    // player (the main loop).
    typealias Phase = Player.Phase
    typealias FrameDecision = Player.FrameDecision

    enum PacketItem { case packet(Packet, Int), end(Int) }
    enum FrameItem { case frame(VideoFrame), end(Int) }

    /// Where a stream stands: still playing, played to its end in a seek generation, or not
    /// played at all (a still has no sound; sound without a picture has no video).
    enum StreamEnd: Equatable {
        case running
        case ended(serial: Int)
        case absent

        /// Whether nothing more is to come from this stream in generation `serial`.
        func isOver(in serial: Int) -> Bool {
            switch self {
            case .running: false
            case .ended(let s): s == serial
            case .absent: true
            }
        }
    }

    let url: String
    let options: PlayerOptions
    let wake: @Sendable () -> Void

    struct Shared {
        var phase: Phase = .opening
        var pendingSeek: Double?
        /// Where the output of an exact seek's generation starts.
        var exactSeek: ExactStart?
        var readError: AVError?
        var videoEnded = StreamEnd.running
        var audioEnded = StreamEnd.running
        var audioEndPTS: Double = 0
        var audioFailed = false
        /// The speed the sound is to be played at; the decode thread follows it.
        var speed = PlaybackSpeed.normal
        /// Stepping frame by frame while paused.
        var step = FrameStep()
        /// The audio and subtitle tracks and which of each plays.
        var tracks = TrackSelection()
        /// The subtitle events decoded so far, by track.
        var cues = SubtitleCues()
    }
    let shared = Locked(Shared())
    /// The newest seek generation; older data is stale.
    let serial = Atomic<Int>(0)
    let aborted = Atomic<Bool>(false)
    let dropped = Atomic<Int>(0)
    let decodeErrors = Atomic<Int>(0)
    let bufferedPermille = Atomic<Int>(0)
    /// Decode more cheaply (no deblocking) while the picture is shown small.
    let lowPower = Atomic<Bool>(false)

    let videoPackets = BoundedQueue<PacketItem>(capacity: 64)
    let audioPackets = BoundedQueue<PacketItem>(capacity: 256)
    let frames = BoundedQueue<FrameItem>(capacity: 4)
    /// Wakes the demux thread when it idles at the end of the file and a seek comes.
    let demuxIdle = Condition()

    private var _demuxer: Demuxer?
    private var _audio: AudioOutput?
    /// Set once by the demux thread while opening; read from any thread.
    var demuxer: Demuxer? {
        get { threadsLock.withLock { _demuxer } }
        set { threadsLock.withLock { _demuxer = newValue } }
    }
    var audio: AudioOutput? {
        get { threadsLock.withLock { _audio } }
        set { threadsLock.withLock { _audio = newValue } }
    }
    /// Read by the audio thread when it creates the stream, so it starts corked if asked.
    let pausedFlag: Atomic<Bool>
    let volumeState: Locked<(volume: Double, muted: Bool)>
    /// One semaphore per spawned thread, signalled when it ends: close() waits on them.
    /// Only the semaphores are kept, never the thread bodies (which hold `self`): storing
    /// those once made a cycle that leaked every player with its decoders and threads.
    var threads: [DispatchSemaphore] = []
    /// Cancels a blocking open from close(), before the demuxer exists.
    let openInterrupt: Interrupt
    let threadsLock = Condition()

    // Main-thread state.
    var mainClock = PlaybackClock()
    /// The seek generation whose first frame is on screen; nil until one is.
    var mainShownSerial: Int?
    var mainLastEnd: Double = 0
    /// When the last frame was handed out, for telling a starved picture (slow download).
    var mainLastShowAt: Double = 0
    /// The first frame after opening or a seek: its pts and when it was shown.
    var mainFirstShown: (pts: Double, at: Double) = (0, 0)
    var mainPaused: Bool
    var mainVolume: Double
    var mainMuted: Bool

    /// Creates a player and starts opening `url` on its demux thread; `wake` is called from
    /// any thread whenever the main loop should look again.
    init(url: String, options: PlayerOptions, wake: @escaping @Sendable () -> Void) {
        PlayerEngine.quietFFmpeg
        self.url = url
        self.options = options
        self.wake = wake
        mainPaused = options.startPaused
        mainVolume = options.volume
        mainMuted = options.muted
        pausedFlag = Atomic(options.startPaused)
        volumeState = Locked((options.volume, options.muted))
        openInterrupt = Interrupt(timeout: options.source.effectiveTimeout)
        shared.withLock { $0.speed = options.speed }
        mainClock.setRate(options.speed.factor, at: MonotonicClock.seconds())
        spawn(name: "mv-demux") { [self] in demuxMain() }
    }

    /// The opening state.
    var phase: Phase { shared.withLock { $0.phase } }

    /// The media description once open.
    var info: MediaInfo? {
        if case .ready(let i) = phase { return i }
        return nil
    }

    /// A problem met after opening (a network error mid-stream), if any.
    var streamError: AVError? { shared.withLock { $0.readError } }

    /// Frames that were due but skipped because a later one was due too.
    var droppedFrames: Int { dropped.load(ordering: .relaxed) }

    /// How much of the source has arrived, 0...1 (1 for local files).
    var bufferedFraction: Double { Double(bufferedPermille.load(ordering: .relaxed)) / 1000 }

    /// Whether sound is really playing (false with --no-audio or without PulseAudio).
    var hasAudioOutput: Bool { audio != nil && !shared.withLock { $0.audioFailed } }

    /// The playback position in seconds.
    var position: Double {
        mainClock.value(at: MonotonicClock.seconds()) ?? 0
    }

    var isPaused: Bool { mainPaused }

    func setPaused(_ paused: Bool) {
        guard paused != mainPaused else { return }
        mainPaused = paused
        pausedFlag.store(paused, ordering: .relaxed)
        mainClock.setPaused(paused, at: MonotonicClock.seconds())
        audio?.setPaused(paused)
        if !paused { resyncAfterSteps() }
        wake()
    }

    /// Seeks to `seconds` (clamped to the media).
    ///
    /// The demuxer can only start at a keyframe at or before the target. With `exact`, what
    /// decodes between that keyframe and the target is decoded but not shown or heard (as
    /// mpv's precise seeks), so the picture and sound start at the target itself; without,
    /// playback starts at the keyframe, which is quicker (loops, seeks to 0).
    func seek(to seconds: Double, exact: Bool = false) {
        seek(to: seconds, start: exact ? .atTarget : nil)
    }

    /// Seeks to `seconds`; `start` says which frame an exact seek shows first (nil: the
    /// keyframe before the target).
    func seek(to seconds: Double, start: ExactStart.Frame?) {
        // NaN or infinity from a caller is no place to go; a finite number is clamped.
        guard seconds.isFinite else { return }
        var target = max(0, seconds)
        if let d = info?.duration { target = min(target, max(0, d - 0.05)) }
        let s = serial.add(1, ordering: .relaxed).newValue
        shared.withLock {
            // A step back from a keyframe needs the keyframe before it, so the demuxer goes
            // to just before the frame on screen.
            $0.pendingSeek = start == .before ? max(0, target - 0.001) : target
            $0.exactSeek = start.map { ExactStart(serial: s, time: target, frame: $0) }
            $0.step.forwardPending = false
            // A stream that is not played at all stays so across a seek: no thread would
            // ever end it again, and the end would never come (an animated GIF, which loops
            // by seeking, froze on its last frame after the second pass).
            if $0.videoEnded != .absent { $0.videoEnded = .running }
            if $0.audioEnded != .absent { $0.audioEnded = .running }
        }
        videoPackets.removeAll()
        audioPackets.removeAll()
        frames.removeAll()
        audio?.flush(serial: s)
        mainClock.reset()
        mainShownSerial = nil
        mainLastEnd = 0
        demuxIdle.lock(); demuxIdle.broadcast(); demuxIdle.unlock()
        wake()
    }

    /// Playing, but the next picture is late and none is queued: the source cannot keep up
    /// (a slow or stalled download). The viewer shows its buffering spinner then.
    var isStarving: Bool {
        let current = serial.load(ordering: .relaxed)
        guard !mainPaused, let info, info.kind == .video, mainShownSerial == current,
              frames.count == 0 else { return false }
        guard !shared.withLock({ $0.videoEnded }).isOver(in: current) else { return false }
        return MonotonicClock.seconds() - mainLastShowAt > 0.5
    }

    /// Asks the decoder to save work while the picture is small (the thumbnail), or not.
    func setLowPower(_ on: Bool) { lowPower.store(on, ordering: .relaxed) }

    var volume: Double { mainVolume }
    var isMuted: Bool { mainMuted }

    func setVolume(_ v: Double, muted: Bool) {
        mainVolume = max(0, min(1, v))
        mainMuted = muted
        volumeState.withLock { $0 = (mainVolume, muted) }
        audio?.setVolume(mainVolume, muted: mainMuted)
    }

    /// Stops every thread and waits for them. Safe to call more than once.
    func close() {
        if aborted.exchange(true, ordering: .relaxed) { return }
        // The demuxer is only known once opened; this also ends a stalled open at once
        // (before, close() waited out the whole network timeout, 15 s).
        openInterrupt.cancel()
        demuxer?.cancel()
        videoPackets.abort()
        audioPackets.abort()
        frames.abort()
        audio?.abort()
        demuxIdle.lock(); demuxIdle.broadcast(); demuxIdle.unlock()
        // The demux thread may still start the decode threads while we wait for it, so
        // wait until no thread is left that we have not waited for.
        var waited = 0
        while true {
            let list = threadsLock.withLock { threads }
            if list.count == waited { break }
            for done in list[waited...] { done.wait() }
            waited = list.count
        }
        audio = nil
        demuxer = nil
    }

    /// FFmpeg's own log lines are for developers; users get one line per failure from us.
    /// An app brings them back for debugging with `FFmpegLog.showsFFmpegLines`.
    static let quietFFmpeg: Void = {
        if !FFmpegLog.showsFFmpegLines { av_log_set_level(AV_LOG_QUIET) }
    }()

    func spawn(name: String, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        threadsLock.withLock { threads.append(done) }
        NamedThread.start(name: name) {
            body()
            done.signal()
        }
    }
}
