/// The master clock: a position that runs with the system clock between updates, at the
/// playback speed.
///
/// The audio output re-anchors it with what PulseAudio says is being heard, so the audio
/// is the master whenever there is audio; without it (no stream, no server, or after the
/// sound ended) the system clock carries it on from the last anchor.
struct PlaybackClock {
    private var anchorPTS: Double?
    private var anchorTime: Double = 0
    private var paused = false
    /// Media seconds per real second.
    private(set) var rate = 1.0

    /// The position at monotonic time `now`, nil until something anchored it.
    func value(at now: Double) -> Double? {
        guard let p = anchorPTS else { return nil }
        return paused ? p : p + (now - anchorTime) * rate
    }

    var isAnchored: Bool { anchorPTS != nil }

    mutating func anchor(_ pts: Double, at now: Double) {
        anchorPTS = pts
        anchorTime = now
    }

    mutating func setPaused(_ p: Bool, at now: Double) {
        if p == paused { return }
        if let v = value(at: now) { anchorPTS = v }
        anchorTime = now
        paused = p
    }

    /// Runs at `rate` from `now` on, without a jump in the position.
    mutating func setRate(_ r: Double, at now: Double) {
        if let v = value(at: now) { anchorPTS = v }
        anchorTime = now
        rate = r
    }

    /// Real seconds until the position moves on by `mediaSeconds`.
    func realSeconds(_ mediaSeconds: Double) -> Double { mediaSeconds / rate }

    mutating func reset() { anchorPTS = nil }
}
