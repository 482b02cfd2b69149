import MediaCore

/// When playing starts after the first picture: once the decoder is a few frames ahead.
///
/// The first picture shows the moment it is decoded. Were the clock (and the sound) to start
/// at once, the frames after it would be due as fast as they come: a decoder that only just
/// keeps up (4K at 60 frames a second beside another busy program) has no lead yet, and its
/// first hiccup drops a frame. Most drops of such a film came in its first half second. As
/// mpv waits for its video output to be ready, the clock waits for a short lead, or a
/// quarter second at most.
extension VideoScheduler {
    /// Frames queued after the one on screen before the clock starts (the queue holds four).
    static let startLead = 3
    /// The longest the clock waits for that lead after the first picture.
    static let startLeadWait = 0.25

    /// While the lead builds, the wait before looking again (the decoder's frames wake the
    /// loop sooner); nil once the clock has started, which also lets the sound start.
    func awaitingLead(now: Double) -> FrameDecision? {
        guard !firstShown.started else { return nil }
        let waited = now - firstShown.at
        // The queue's end marker counts as a frame: a clip shorter than the lead waits only
        // for its last frames.
        if frames.count < Self.startLead, waited < Self.startLeadWait {
            clock.anchor(firstShown.pts, at: now)
            return .wait(min(0.01, Self.startLeadWait - waited))
        }
        firstShown.started = true
        clock.anchor(firstShown.pts, at: now)
        audio.firstPicture.open()
        return nil
    }
}
