import Windowing

extension Stage {
    /// The pointer's shape for what it rests on now, as the players and viewers people come
    /// from show it:
    /// - a closed hand while a picture zoomed past the window is dragged, an open one over it;
    /// - none while a video plays, or anything shows fullscreen, with the controls hidden,
    ///   so it comes and goes with them (a move, a click, a pause bring both back), unless
    ///   the user chose another `PointerHiding`;
    /// - the desktop's own otherwise, and always over the corner thumbnail, whose controls
    ///   show whenever the pointer is over it.
    func pointerShape(now: Double) -> PointerShape {
        guard let v = view, !isMinimized, motion.animation == nil else { return .standard }
        if case .pan = input.gestures.drag { return .grabbing }
        if input.gestures.drag == nil, (v.isPlayable && v.hasPicture && v.isPlaying) || window.isFullscreen,
           pointerHides(now: now) {
            return .hidden
        }
        return v.overhangs(width: window.width, height: window.height) ? .grab : .standard
    }

    /// Whether the pointer hides now where it may, as the user chose.
    private func pointerHides(now: Double) -> Bool {
        switch controls.pointerHiding {
        case .withControls: !controlsVisible(now: now)
        case .never: false
        case .always: true
        case .afterIdle(let seconds): now - controls.movedAt >= seconds
        }
    }

    /// When a pointer hidden some time after the last move is due to hide; the controls'
    /// own hiding wakes the loop for the default.
    func pointerDeadline(now: Double) -> Double? {
        guard case .afterIdle(let seconds) = controls.pointerHiding else { return nil }
        let due = controls.movedAt + seconds
        return due > now ? due - now + 0.01 : nil
    }

    /// Shows the pointer's shape for now; free when it did not change. Over the gallery,
    /// whose grid takes the pointer's moves, it is the desktop's own.
    func showPointer(now: Double, underGallery: Bool) {
        window.setPointer(underGallery ? .standard : pointerShape(now: now))
    }
}
