import MediaCore

/// The last stage, on the main thread (mpv's video out): chooses which frame of the frame
/// queue to show, and when, against the master clock, which the sound output sets while
/// there is sound and the system clock carries on otherwise.
///
/// It reads the other stages only through values: the frames and end markers in its
/// queue, the audio stage's `Status` and position, and the demux stage's snapshot. Not
/// `Sendable`: it belongs to the thread that owns the player.
final class VideoScheduler {
    typealias FrameDecision = Player.FrameDecision

    let frames: BoundedQueue<FrameItem>
    let demux: DemuxStage
    let audio: AudioDecodeStage
    let serial: SeekSerial
    let untimed: Bool
    let playsSound: Bool
    /// Tells the video stage a late frame was skipped, so it decodes more cheaply a while.
    let onDrop: () -> Void
    var clock = PlaybackClock()
    /// The seek generation whose first frame is on screen; nil until one is.
    var shownSerial: Int?
    var lastEnd: Double = 0
    /// When the last frame was handed out, for telling a starved picture (slow download).
    var lastShowAt: Double = 0
    /// The first frame after opening or a seek: its pts, when it was shown, and whether the
    /// clock has started from it (`VideoScheduler+Start.swift`).
    var firstShown: (pts: Double, at: Double, started: Bool) = (0, 0, true)
    var paused: Bool
    var step = FrameStep()
    /// Where the pictures stand, from the end markers met in the queue.
    var videoEnd = StreamEnd.running
    /// Frames that were due but skipped because a later one was due too.
    private(set) var dropped = 0

    init(frames: BoundedQueue<FrameItem>, demux: DemuxStage, audio: AudioDecodeStage, serial: SeekSerial,
         options: PlayerOptions, onDrop: @escaping () -> Void) {
        self.frames = frames
        self.demux = demux
        self.audio = audio
        self.serial = serial
        self.onDrop = onDrop
        untimed = options.untimed
        playsSound = options.audio
        paused = options.startPaused
        clock.setRate(options.speed.factor, at: MonotonicClock.seconds())
    }

    /// The media description once open.
    var info: MediaInfo? {
        if case .ready(let i) = demux.state.withLock({ $0.phase }) { return i }
        return nil
    }

    /// Whether a picture plays: false for sound alone (and before the source is open).
    var videoAbsent: Bool {
        demux.state.withLock { s in
            if case .ready = s.phase { return !s.decodes.video }
            return false
        }
    }

    /// Where the pictures stand, with a source without any counted as having none.
    var videoState: StreamEnd { videoAbsent ? .absent : videoEnd }

    /// Forgets the frame on screen: a seek starts generation anew.
    func reset() {
        clock.reset()
        shownSerial = nil
        lastEnd = 0
        videoEnd = .running
        step.forwardPending = false
    }

    /// The main loop asks this whenever it wakes; it answers with the frame to show, or how
    /// long to sleep. Late frames are dropped (and counted) when a later one is due too.
    func nextFrame() -> FrameDecision {
        let now = MonotonicClock.seconds()
        let current = serial.current
        followSound(now: now)
        if !clock.isAnchored, videoAbsent {
            // Sound only: no picture will anchor the clock, so start it here.
            clock.anchor(0, at: now)
            if paused { clock.setPaused(true, at: now) }
        }
        while let item = frames.peek() {
            switch item {
            case .end(let s):
                _ = frames.tryPop()
                if s == current { videoEnd = .ended(serial: s) }
            case .frame(let f):
                if f.serial != current {
                    _ = frames.tryPop()
                    continue
                }
                if let decision = decide(f, current: current, now: now) { return decision }
            }
        }
        return endDecision(current: current, now: now)
    }

    /// What to do about `f`, the oldest frame of the current generation; nil when it was
    /// dropped as late and the next one is to be looked at.
    private func decide(_ f: VideoFrame, current: Int, now: Double) -> FrameDecision? {
        // The first frame after opening or a seek shows at once, paused or not.
        if shownSerial != current {
            _ = frames.tryPop()
            shownSerial = current
            if !clock.isAnchored { clock.anchor(f.pts, at: now) }
            if paused { clock.setPaused(true, at: now) }
            // Only a film's opening waits for a lead: after a seek the sound is under way.
            let leads = lastShowAt == 0 && !paused && !untimed && info?.kind == .video
            firstShown = (f.pts, now, !leads)
            if !leads { audio.firstPicture.open() }
            return show(f, now: now)
        }
        // A still's later pictures are the same picture, sharper (a web JPEG shown while
        // it downloads): each shows as it comes, paused or not.
        if untimed || info?.kind == .image {
            _ = frames.tryPop()
            return show(f, now: now)
        }
        if paused { return steppedFrame(f, now: now) }
        if let wait = awaitingLead(now: now) { return wait }
        if awaitingSound(now: now) {
            // Hold the picture until the sound really starts, as ffplay and mpv do:
            // running ahead on the system clock and then jumping to the audio clock
            // would drop the frames in between.
            clock.anchor(firstShown.pts, at: now)
            return .wait(0.01)
        }
        guard let position = clock.value(at: now) else { return .idle }
        let delay = f.pts - position
        if delay > 0.002 { return .wait(min(clock.realSeconds(delay), 0.25)) }
        _ = frames.tryPop()
        // Dropped only when the next frame is itself late, not merely due.
        if case .frame(let next)? = frames.peek(), next.serial == current, next.pts < position - 0.01 {
            dropped += 1
            onDrop()
            return nil
        }
        return show(f, now: now)
    }

    /// Once the last sample was heard the sound's position stands still at the end of the
    /// audio; from then on the system clock carries on from the last anchor, as
    /// PlaybackClock promises. (Re-anchoring to the frozen position kept a video whose
    /// last frame ends after its sound, or that is longer than its sound, from ever
    /// finishing: a 2 s clip with AAC sound hung at 1.98 s.)
    private func followSound(now: Double) {
        guard !paused, let o = audio.playingOutput, !o.isDrained, let a = o.position() else { return }
        // The server's position comes in steps of its timing updates; following every
        // step would make frames look late and drop them. Small differences are eased
        // in, large ones (start, seek, a stall) taken at once.
        if let predicted = clock.value(at: now), abs(a - predicted) < 0.1 {
            clock.anchor(predicted + (a - predicted) * 0.2, at: now)
        } else {
            clock.anchor(a, at: now)
        }
    }
}
