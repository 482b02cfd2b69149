import Playback

/// Playing faster or slower, and frame by frame.
extension MediaView {
    /// How fast video and audio play, as AVPlayer's `rate`: 1 is the media's own pace, 2
    /// twice as fast, 0.5 half. Kept within 0.25...4 (a value outside is clamped, NaN
    /// ignored). The sound keeps its pitch and stays in step with the picture. Applies at
    /// once to media that plays, and to media the view opens later.
    public var playbackSpeed: Double {
        get { settings.playerOptions.speed.factor }
        set {
            guard !newValue.isNaN else { return }
            let speed = PlaybackSpeed(clamping: newValue)
            settings.playerOptions.speed = speed
            session?.player?.setSpeed(speed)
        }
    }

    /// Pauses (telling the delegate, if it was playing) and shows the next frame, or with
    /// `forward == false` the one before, exactly. Returns false and changes nothing when
    /// there are no frames to step through: a still, sound only, media not open yet.
    @discardableResult
    public func stepFrame(forward: Bool) -> Bool {
        guard let s = session, let kind = s.info?.kind, kind == .video || kind == .animated else { return false }
        if isPlaying { pause() }
        return s.stepFrame(forward: forward)
    }
}
