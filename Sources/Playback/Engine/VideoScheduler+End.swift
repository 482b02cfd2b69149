/// When the sound holds the picture back, and when playing is over.
extension VideoScheduler {
    /// Where the sound stands, with a source without any counted as having none.
    func soundState(_ status: AudioDecodeStage.Status) -> StreamEnd {
        let plays = demux.state.withLock { s -> Bool in
            if case .ready = s.phase { return s.decodes.audio }
            return true
        }
        return plays ? status.end : .absent
    }

    /// Sound is expected but the speaker has not started yet (bounded, so a sound server
    /// that never starts cannot stall the picture).
    func awaitingSound(now: Double) -> Bool {
        guard playsSound, info?.hasAudio == true, now - firstShown.at < 1.0 else { return false }
        let status = audio.status
        if status.failed || soundState(status) != .running { return false }
        guard let o = audio.output else { return true }
        return o.position() == nil
    }

    /// Nothing of the current generation is queued: whether to wait for more or finish.
    func endDecision(current: Int, now: Double) -> FrameDecision {
        guard let info else { return .idle }
        let status = audio.status
        let sound = soundState(status)
        let videoDone = videoState.isOver(in: current)
        let audioReached = sound.isOver(in: current)
        // While sound plays on, look again now and then: the clock moves the track.
        guard videoDone, audioReached else { return videoDone && !paused ? .wait(0.1) : .idle }
        if paused { return .idle }
        let position = clock.value(at: now) ?? 0
        if sound == .ended(serial: current) {
            if let o = audio.playingOutput, o.isLost {
                // The server went away after the last sound was written: no write failed to
                // say so, and the drain asked of it never answers. The clock runs on.
                AudioWarning.once("mediaview: sound server lost; playing silently")
                if position < status.endPTS { return .wait(min(0.25, clock.realSeconds(status.endPTS - position))) }
            } else if let o = audio.playingOutput {
                if !o.isDrained { return .wait(0.02) }
            } else if position < status.endPTS {
                // No sound server: the system clock stands in for the speaker.
                return .wait(min(0.25, clock.realSeconds(status.endPTS - position)))
            }
        }
        // Let the last picture stay for its own duration (the last frame of a GIF). A still
        // has no time of its own: its packet's duration is the demuxer's made-up rate (1/25 s
        // for a PNG), and waiting it out held every picture of a slide show 40 ms too long.
        if untimed || info.kind == .image { return .finished }
        if clock.isAnchored && position < lastEnd { return .wait(min(0.25, clock.realSeconds(lastEnd - position))) }
        return .finished
    }
}
