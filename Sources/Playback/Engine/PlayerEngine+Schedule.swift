/// Choosing which frame to show, and when, against the master clock.
extension PlayerEngine {
    /// The main loop asks this whenever it wakes; it answers with the frame to show, or how
    /// long to sleep. Late frames are dropped (and counted) when a later one is due too.
    func nextFrame() -> FrameDecision {
        let now = MonotonicClock.seconds()
        let current = serial.load(ordering: .relaxed)
        // Once the last sample was heard the sound's position stands still at the end of the
        // audio; from then on the system clock carries on from the last anchor, as
        // PlaybackClock promises. (Re-anchoring to the frozen position kept a video whose
        // last frame ends after its sound, or that is longer than its sound, from ever
        // finishing: a 2 s clip with AAC sound hung at 1.98 s.)
        if !mainPaused, hasAudioOutput, let o = audio, !o.isDrained, let a = o.position() {
            // The server's position comes in steps of its timing updates; following every
            // step would make frames look late and drop them. Small differences are eased
            // in, large ones (start, seek, a stall) taken at once.
            if let predicted = mainClock.value(at: now), abs(a - predicted) < 0.1 {
                mainClock.anchor(predicted + (a - predicted) * 0.2, at: now)
            } else {
                mainClock.anchor(a, at: now)
            }
        }
        if !mainClock.isAnchored, shared.withLock({ $0.videoEnded == .absent }) {
            // Sound only: no picture will anchor the clock, so start it here.
            mainClock.anchor(0, at: now)
            if mainPaused { mainClock.setPaused(true, at: now) }
        }
        while let item = frames.peek() {
            switch item {
            case .end(let s):
                _ = frames.tryPop()
                if s == current { shared.withLock { $0.videoEnded = .ended(serial: s) } }
                continue
            case .frame(let f):
                if f.serial != current {
                    _ = frames.tryPop()
                    continue
                }
                // The first frame after opening or a seek shows at once, paused or not.
                if mainShownSerial != current {
                    _ = frames.tryPop()
                    mainShownSerial = current
                    if !mainClock.isAnchored { mainClock.anchor(f.pts, at: now) }
                    if mainPaused { mainClock.setPaused(true, at: now) }
                    mainLastEnd = f.pts + max(f.duration, 0)
                    mainFirstShown = (f.pts, now)
                    mainLastShowAt = now
                return show(f)
                }
                if options.untimed {
                    _ = frames.tryPop()
                    mainLastEnd = f.pts + max(f.duration, 0)
                    mainLastShowAt = now
                return show(f)
                }
                if mainPaused { return steppedFrame(f, now: now) }
                if awaitingSound(now: now) {
                    // Hold the picture until the sound really starts, as ffplay and mpv do:
                    // running ahead on the system clock and then jumping to the audio clock
                    // would drop the frames in between.
                    mainClock.anchor(mainFirstShown.pts, at: now)
                    return .wait(0.01)
                }
                guard let clock = mainClock.value(at: now) else { return .idle }
                let delay = f.pts - clock
                if delay > 0.002 { return .wait(min(mainClock.realSeconds(delay), 0.25)) }
                _ = frames.tryPop()
                // Dropped only when the next frame is itself late, not merely due.
                if case .frame(let next)? = frames.peek(), next.serial == current, next.pts < clock - 0.01 {
                    dropped.add(1, ordering: .relaxed)
                    continue
                }
                mainLastEnd = f.pts + max(f.duration, 0)
                mainLastShowAt = now
                return show(f)
            }
        }
        return endDecision(current: current, now: now)
    }

    /// Sound is expected but the speaker has not started yet (bounded, so a sound server
    /// that never starts cannot stall the picture).
    private func awaitingSound(now: Double) -> Bool {
        guard options.audio, info?.hasAudio == true, now - mainFirstShown.at < 1.0 else { return false }
        let s = shared.withLock { $0 }
        if s.audioFailed || s.audioEnded != .running { return false }
        guard let o = audio else { return true }
        return o.position() == nil
    }

    private func endDecision(current: Int, now: Double) -> FrameDecision {
        let s = shared.withLock { $0 }
        guard case .ready = s.phase else { return .idle }
        let videoDone = s.videoEnded.isOver(in: current)
        let audioReached = s.audioEnded.isOver(in: current)
        // While sound plays on, look again now and then: the clock moves the track.
        guard videoDone, audioReached else { return videoDone && !mainPaused ? .wait(0.1) : .idle }
        if mainPaused { return .idle }
        let clock = mainClock.value(at: now) ?? 0
        if s.audioEnded == .ended(serial: current) {
            if hasAudioOutput, let o = audio {
                if !o.isDrained { return .wait(0.02) }
            } else if clock < s.audioEndPTS {
                // No sound server: the system clock stands in for the speaker.
                return .wait(min(0.25, mainClock.realSeconds(s.audioEndPTS - clock)))
            }
        }
        // Let the last picture stay for its own duration (the last frame of a GIF). A still
        // has no time of its own: its packet's duration is the demuxer's made-up rate (1/25 s
        // for a PNG), and waiting it out held every picture of a slide show 40 ms too long.
        if options.untimed || info?.kind == .image { return .finished }
        if mainClock.isAnchored && clock < mainLastEnd { return .wait(min(0.25, mainClock.realSeconds(mainLastEnd - clock))) }
        return .finished
    }
}
