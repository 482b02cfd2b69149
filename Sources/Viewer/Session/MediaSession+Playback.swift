import Playback

/// Playing, pausing, seeking and the sound of one session. Each call returns what the
/// delegate is to hear, if anything.
extension MediaSession {
    func play() -> SessionEvent? {
        guard let p = player, failure == nil else { return nil }
        if progress.finishedAt != nil {
            progress.finishedAt = nil
            p.seek(to: 0)
        }
        guard p.isPaused else { return nil }
        p.setPaused(false)
        progress.hasStartedPlaying = true
        // Stills have nothing to play; until the kind is known the notice waits.
        guard let info else { progress.playNoticePending = true; return nil }
        return info.kind != .image ? .played : nil
    }

    func pause() -> SessionEvent? {
        guard let p = player, !p.isPaused else { return nil }
        p.setPaused(true)
        progress.playNoticePending = false
        return info.map { $0.kind != .image } == true ? .paused : nil
    }

    /// Seeks to `seconds`, to that very point (not the keyframe before it, which in a long
    /// GOP can be behind where a forward seek started).
    func seek(to seconds: Double) {
        guard let p = player, info?.isPlayable ?? false else { return }
        progress.finishedAt = nil
        p.seek(to: seconds, exact: true)
    }

    /// Steps one frame while paused; false when there is nothing to step through.
    func stepFrame(forward: Bool) -> Bool {
        guard let p = player, failure == nil else { return false }
        // A finished item steps back from its last frame; playing it again starts over.
        if !forward { progress.finishedAt = nil }
        return p.stepFrame(forward: forward)
    }

    /// Sets the sound's level; `duck` lowers it while a gesture throws the view away,
    /// without touching the volume the user chose.
    func applyVolume(_ o: PlayerOptions, duck: Double = 1) {
        player?.setVolume(o.volume * max(0, min(1, duck)), muted: o.muted)
    }

    /// Decodes cheaply while small: the thumbnail needs less than every detail.
    func setLowPower(_ on: Bool) { player?.setLowPower(on) }

    /// Frames the player dropped so far.
    var droppedFrames: Int { player?.droppedFrames ?? 0 }

    /// The loading or buffering indicator turns while it shows.
    var isWaitingForData: Bool {
        guard let p = player else { return false }
        return p.isStarving || p.phase == .opening
    }

    /// How long an item may open before its loading indicator shows. A photo or a film that
    /// opens sooner goes straight from black to its picture: an indicator drawn for a frame
    /// or two would flash, and its whole-window draws would take a core from the decoding.
    static let loadingIndicatorDelay = 0.15

    /// When the loading indicator of an item still opening starts to show; nil when the
    /// item is not opening.
    var loadingIndicatorFrom: Double? {
        guard let p = player, p.phase == .opening else { return nil }
        return firstShownAt + Self.loadingIndicatorDelay
    }
}
