/// Playing faster or slower: the clock runs at the speed, the sound goes through the tempo
/// filter, and the pictures follow the clock.
extension PlayerEngine {
    /// The playback speed.
    var speed: PlaybackSpeed { shared.withLock { $0.speed } }

    /// Plays at `speed` from now on, without a jump in the position; the sound follows
    /// within a few milliseconds (what the decode thread had already written plays out).
    func setSpeed(_ speed: PlaybackSpeed) {
        shared.withLock { $0.speed = speed }
        mainClock.setRate(speed.factor, at: MonotonicClock.seconds())
        wake()
    }
}
