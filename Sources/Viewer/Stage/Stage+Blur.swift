import Dispatch
import Playback

/// "Minimize when I turn away": the fullscreen window becomes the corner thumbnail when
/// another application takes the focus while a video plays, so the user keeps watching
/// while working, as a browser opens picture-in-picture when its tab is left.
extension Stage {
    /// The window gained or lost the keyboard focus.
    func focusChanged(isIn: Bool, now: Double) {
        guard input.focus.minimizesOnBlur else { return }
        if isIn {
            input.focus.lostAt = nil
            return
        }
        input.focus.lostAt = now
        DispatchQueue.main.asyncAfter(deadline: .now() + FocusWatch.settle) { [weak self] in
            MainActor.assumeIsolated { self?.minimizeIfStillAway(since: now) }
        }
    }

    /// The focus stayed away: a playing video in the full-size window becomes the thumbnail.
    private func minimizeIfStillAway(since lost: Double) {
        guard input.focus.lostAt == lost, !isMinimized, !isPinned, !window.isEmbedded, isAtRest,
              let v = view, v.isPlaying, v.info?.kind == .video else { return }
        setMinimized(true, animated: true)
    }
}
