import Playback

/// The speed keys: one speed for the whole queue.
extension MediaQueue {
    /// Changes the speed of every queued item, as mpv's speed is the player's, and says
    /// the new speed on screen ("Speed: 1.50x").
    func changeSpeed(_ change: PlayerCommand.SpeedChange) {
        let from = PlaybackSpeed(clamping: current?.playbackSpeed ?? 1)
        let to = change.applied(to: from)
        MediaView.changeAll(playlist) { $0.playbackSpeed = to.factor }
        current?.showMessage("Speed: \(to)")
    }
}
