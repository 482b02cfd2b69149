import MediaCore
import Subtitles
import Synchronization
import Web

/// The first stage of a player: opens the source on its own thread (`mv-demux`), describes
/// it, and reads packets into the two packet queues the decode stages take from. Text
/// subtitles are decoded here, as they are met, into the cues the renderer draws.
///
/// Pictures with a decoder of their own (`PictureSource`) are decoded here too, straight
/// into the frame queue: there is nothing to demux.
///
/// Its interface is values: it takes `SeekCommand`s and sends `PacketItem`s; what it found
/// (the phase, a read error, the tracks and cues) is read as a snapshot of `State`.
final class DemuxStage: @unchecked Sendable {
    // @unchecked: `state` and `demuxerBox` are locked, the queues lock themselves, the
    // flags are atomics, and the rest is immutable.
    typealias Phase = Player.Phase

    /// What the stage publishes and is asked; read and written under its lock.
    struct State {
        var phase: Phase = .opening
        /// A photo's small picture, offered before its full decode.
        var firstLook: FirstLook?
        /// Which stages play once ready: a still has no sound, sound alone no video.
        var decodes = (video: true, audio: true)
        /// The newest seek not yet taken.
        var command: SeekCommand?
        /// A failure met after opening (a broken download, damaged picture data).
        var readError: AVError?
        /// The audio and subtitle tracks and which of each plays.
        var tracks = TrackSelection()
        /// The subtitle events decoded so far, by track.
        var cues = SubtitleCues()
    }

    /// What the source turned out to hold, for the engine to start the decode stages with.
    struct Opened {
        var info: MediaInfo
        var video: VideoDecodeStage.Setup?
        var audio: AudioDecodeStage.Setup?
    }

    let url: String
    let options: PlayerOptions
    let wake: @Sendable () -> Void
    let serial: SeekSerial
    let state = Locked(State())
    let videoPackets = BoundedQueue<PacketItem>(capacity: 64)
    let audioPackets = BoundedQueue<PacketItem>(capacity: 256)
    /// Where a `PictureSource` puts its frames: the video stage's output queue.
    let pictureFrames: BoundedQueue<FrameItem>
    /// Wakes the thread when it idles at the end of the file and a seek comes.
    let idle = Condition()
    /// Cancels a blocking open from close(), before the demuxer exists.
    let openInterrupt: Interrupt
    // Atomics rather than the state lock: single words, written by this thread and read by
    // the main loop every frame (the buffered bar) or checked by the read loop per packet.
    let bufferedPermille = Atomic<Int>(0)
    let closed = Atomic<Bool>(false)
    /// Set once by this thread while opening; read from any thread.
    private let demuxerBox = Locked<Demuxer?>(nil)

    init(url: String, options: PlayerOptions, serial: SeekSerial, pictureFrames: BoundedQueue<FrameItem>,
         wake: @escaping @Sendable () -> Void) {
        self.url = url
        self.options = options
        self.serial = serial
        self.pictureFrames = pictureFrames
        self.wake = wake
        openInterrupt = Interrupt(timeout: options.source.effectiveTimeout)
    }

    var demuxer: Demuxer? {
        get { demuxerBox.withLock { $0 } }
        set { demuxerBox.withLock { $0 = newValue } }
    }

    var isClosed: Bool { closed.load(ordering: .relaxed) }

    /// Why the sandboxed worker reading the container stopped, once it did.
    var sandboxStopped: AVError? {
        demuxer?.sandboxStopped
    }

    /// A copy of what the stage found so far.
    var snapshot: State { state.withLock { $0 } }

    /// Drops every queued packet and asks the thread to seek: the queues are emptied first,
    /// so the start of the new generation the thread queues next cannot be dropped with them.
    func seek(_ command: SeekCommand) {
        videoPackets.removeAll()
        audioPackets.removeAll()
        state.withLock { $0.command = command }
        idle.withLock { idle.broadcast() }
    }

    /// The seek asked for, taken so it is done once.
    func takeCommand() -> SeekCommand? {
        state.withLock { s in defer { s.command = nil }; return s.command }
    }

    /// Ends the thread: a blocking open or read gives up, the queues wake their waiters.
    /// False when it was closed already.
    func close() -> Bool {
        if closed.exchange(true, ordering: .relaxed) { return false }
        // The demuxer is only known once opened; this also ends a stalled open at once
        // (before, close() waited out the whole network timeout, 15 s).
        openInterrupt.cancel()
        demuxer?.cancel()
        videoPackets.abort()
        audioPackets.abort()
        idle.withLock { idle.broadcast() }
        return true
    }

    /// Releases the demuxer once every thread has ended.
    func release() { demuxer = nil }

    /// The source cannot be played: the item fails with `error`.
    func fail(_ error: AVError) {
        state.withLock { $0.phase = .failed(error) }
        wake()
    }

    /// Waits (woken by a seek or close) while nothing is asked of the idle thread.
    func waitWhileIdle() {
        idle.lock()
        while state.withLock({ $0.command == nil }) && !isClosed { idle.wait(seconds: 0.5) }
        idle.unlock()
    }
}
