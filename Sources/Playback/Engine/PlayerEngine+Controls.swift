import MediaCore

/// What the user does to a playing item: pause, seek, volume, speed, a smaller picture.
/// Each becomes a command to the stages it concerns.
extension PlayerEngine {
    func setPaused(_ paused: Bool) {
        guard paused != scheduler.paused else { return }
        scheduler.paused = paused
        scheduler.clock.setPaused(paused, at: MonotonicClock.seconds())
        sound.setPaused(paused)
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
        let s = serial.next()
        // A step back from a keyframe needs the keyframe before it, so the demuxer goes
        // to just before the frame on screen.
        let command = SeekCommand(serial: s, target: start == .before ? max(0, target - 0.001) : target,
                                  exact: start.map { ExactStart(serial: s, time: target, frame: $0) })
        // What the stages downstream hold goes first, then the demux stage is asked: asked
        // first, it could seek, read and decode the new generation's first frames (all of a
        // small GIF's, with its end) before they were emptied, and a looping GIF froze.
        video.frames.removeAll()
        sound.flush(serial: s)
        scheduler.reset()
        seekTarget = target
        demux.seek(command)
        wake()
    }

    /// Asks the decoder to save work while the picture is small (the thumbnail), or not.
    func setLowPower(_ on: Bool) { video.lowPower.store(on, ordering: .relaxed) }

    func setVolume(_ v: Double, muted: Bool) {
        volume = max(0, min(1, v))
        isMuted = muted
        sound.setVolume(volume, muted: muted)
    }

    /// The playback speed.
    var speed: PlaybackSpeed { sound.state.withLock { $0.speed } }

    /// Plays at `speed` from now on, without a jump in the position; the sound follows
    /// within a few milliseconds (what the decode thread had already written plays out).
    func setSpeed(_ speed: PlaybackSpeed) {
        sound.setSpeed(speed)
        scheduler.clock.setRate(speed.factor, at: MonotonicClock.seconds())
        wake()
    }
}
