import MediaCore

/// Handing frames out, one at a time while paused and stepping.
extension VideoScheduler {
    /// Hands `f` to the main loop, remembering it as the frame on screen.
    func show(_ f: VideoFrame, now: Double) -> FrameDecision {
        lastEnd = f.pts + max(f.duration, 0)
        lastShowAt = now
        step.shownPTS = f.pts
        return .show(f)
    }

    /// While paused: the next frame when a step forward waits for it.
    func steppedFrame(_ f: VideoFrame, now: Double) -> FrameDecision {
        guard step.forwardPending else { return .idle }
        step.forwardPending = false
        _ = frames.tryPop()
        clock.anchor(f.pts, at: now)
        return show(f, now: now)
    }

    /// Playing, but the next picture is late and none is queued: the source cannot keep up
    /// (a slow or stalled download). The viewer shows its buffering spinner then.
    var isStarving: Bool {
        let current = serial.current
        guard !paused, let info, info.kind == .video, shownSerial == current, frames.count == 0 else { return false }
        guard !videoState.isOver(in: current) else { return false }
        return MonotonicClock.seconds() - lastShowAt > 0.5
    }
}
