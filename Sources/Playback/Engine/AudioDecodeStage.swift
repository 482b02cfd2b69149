import MediaCore
import Synchronization

/// The audio decode stage: takes the demux stage's sound packets on its own thread
/// (`mv-audio`), decodes and resamples them, and queues them for PulseAudio
/// (`AudioOutput`, the audio out, which stretches them to the speed). Without a reachable
/// server it only keeps track of where the sound would end. The work of the thread is
/// `AudioDecoding`.
///
/// Its interface is values: `PacketItem`s in; the speed, volume and pause as commands; and
/// what it reports (where the sound ends, whether the output works) as a `Status` snapshot.
final class AudioDecodeStage: @unchecked Sendable {
    // @unchecked: `state` is locked, the flag is atomic, the rest immutable.

    /// What the demux stage found for this stage to decode.
    struct Setup: @unchecked Sendable {
        // @unchecked: made on the demux thread and handed to this stage's thread, which is
        // the only one to touch the decoder from then on.
        var decoder: any SoundDecoding
        /// The container stream it decodes, to tell a track switch by.
        var stream: Int?
        /// Music or video, for the desktop's mixer.
        var kind: MediaInfo.Kind
        /// A picture is decoded beside the sound: the sound waits for its first frame.
        var waitsForPicture: Bool
        /// The item's name, which a track switch's decoder says its failures with.
        var name: String
    }

    /// What the main thread asks and the stage reports, under one lock, taken once per
    /// decoded frame.
    struct State {
        /// The speed the sound is to be played at.
        var speed: PlaybackSpeed
        var volume: Double
        var muted: Bool
        var paused: Bool
        /// The output while it works; nil without a server, or once it went away.
        var output: AudioOutput?
        var status = Status()
    }

    /// What the stage reports.
    struct Status: Equatable {
        /// Where the sound decoded so far ends, in media seconds.
        var endPTS: Double = 0
        var end = StreamEnd.running
        /// Sound should play but cannot (no server, or it went away).
        var failed = false
    }

    let options: PlayerOptions
    let serial: SeekSerial
    let wake: @Sendable () -> Void
    let state: Locked<State>
    // An atomic rather than the lock: one flag, set once by close() and read where a write
    // to the server fails, to tell a shutdown from a lost server.
    let closed = Atomic<Bool>(false)
    /// The sandboxed decoder stopped (crashed, killed, hung): the item fails with this line.
    let stopped = Locked<AVError?>(nil)
    /// Opened by the scheduler when a video's first picture shows; the sound waits for it.
    let firstPicture = PictureGate()

    init(options: PlayerOptions, serial: SeekSerial, wake: @escaping @Sendable () -> Void) {
        self.options = options
        self.serial = serial
        self.wake = wake
        state = Locked(State(speed: options.speed, volume: options.volume, muted: options.muted,
                             paused: options.startPaused))
    }

    /// Decodes `setup`'s stream from `packets` until closed; the body of the stage's thread.
    /// A decoder for the sound track a user switched to (see `DecodeWorkers.soundDecoder`).
    func soundDecoder(_ next: StreamParameters, name: String) throws(AVError) -> any SoundDecoding {
        try DecodeWorkers.shared.soundDecoder(next, name: name, options: options)
    }

    func run(_ setup: Setup, from packets: BoundedQueue<PacketItem>) {
        let work = AudioDecoding(stage: self, setup: setup)
        work.openOutput()
        DecodeLoop(serial: serial).run(work, from: packets)
    }

    /// The output, while it works.
    var output: AudioOutput? { state.withLock { $0.output } }

    /// A copy of what the stage reports.
    var status: Status { state.withLock { $0.status } }

    /// The output while sound really plays, for the clock to follow.
    var playingOutput: AudioOutput? { state.withLock { $0.status.failed ? nil : $0.output } }

    /// Whether sound is really playing (false with --no-audio or without PulseAudio).
    var isPlaying: Bool { state.withLock { $0.output != nil && !$0.status.failed } }

    func setPaused(_ paused: Bool) {
        let out = state.withLock { $0.paused = paused; return $0.output }
        out?.setPaused(paused)
    }

    func setVolume(_ volume: Double, muted: Bool) {
        let out = state.withLock { $0.volume = volume; $0.muted = muted; return $0.output }
        out?.setVolume(volume, muted: muted)
    }

    /// Plays at `speed` from the next sound the server takes on.
    func setSpeed(_ speed: PlaybackSpeed) {
        let out = state.withLock { $0.speed = speed; return $0.output }
        out?.setSpeed(speed)
    }

    /// Drops what the server holds: generation `serial` starts.
    func flush(serial s: Int) { output?.flush(serial: s) }

    /// Ends the thread's waits on the server.
    func close() {
        closed.store(true, ordering: .relaxed)
        firstPicture.open()
        output?.abort()
    }

    /// Releases the output once every thread has ended.
    func release() { state.withLock { $0.output = nil } }
}
