/// Stepping one frame forward or back while paused, as mpv's `.` and `,` do.
extension PlayerEngine {
    /// What stepping needs to remember between main-loop turns.
    struct FrameStep {
        /// A step forward was asked for and its frame is not shown yet.
        var forwardPending = false
        /// The timestamp of the frame on screen.
        var shownPTS: Double?
        /// Steps moved the picture away from where the paused sound stands: playing again
        /// starts both at the picture with an exact seek.
        var soundBehind = false
    }

    /// Pauses (if playing) and shows the next frame, or the one before. False when the
    /// media has no frames to step through (a still, sound only), which is then left alone.
    func stepFrame(forward: Bool) -> Bool {
        guard let info, info.kind == .video || info.kind == .animated,
              shared.withLock({ $0.videoEnded != .absent }) else { return false }
        if !mainPaused { setPaused(true) }
        // Without sound nothing is left behind: playing goes on from the picture anyway.
        let sound = hasAudioOutput
        let shown = shared.withLock { st -> Double? in
            if sound { st.step.soundBehind = true }
            if forward { st.step.forwardPending = true }
            return st.step.shownPTS
        }
        if forward {
            // The paused sound stops taking packets, so after seconds of steps the demuxer
            // waits for room in the sound's queue and no more frames come: start afresh
            // after the frame on screen instead.
            if frames.count == 0, audioPackets.count >= audioPackets.capacity - 1, let shown {
                seek(to: shown, start: .after)
            }
        } else if let shown {
            seek(to: shown, start: .before)
        }
        wake()
        return true
    }

    /// Playing again after steps: the sound stands where the pause began, so both start
    /// from the frame on screen.
    func resyncAfterSteps() {
        let shown = shared.withLock { st -> Double? in
            defer { st.step.soundBehind = false; st.step.forwardPending = false }
            return st.step.soundBehind ? st.step.shownPTS : nil
        }
        if let shown { seek(to: shown, exact: true) }
    }

    /// Hands `f` to the main loop, remembering it as the frame on screen.
    func show(_ f: VideoFrame) -> FrameDecision {
        shared.withLock { $0.step.shownPTS = f.pts }
        return .show(f)
    }

    /// While paused: the next frame when a step forward waits for it.
    func steppedFrame(_ f: VideoFrame, now: Double) -> FrameDecision {
        guard shared.withLock({ st -> Bool in defer { st.step.forwardPending = false }; return st.step.forwardPending })
        else { return .idle }
        _ = frames.tryPop()
        mainClock.anchor(f.pts, at: now)
        mainLastEnd = f.pts + max(f.duration, 0)
        mainLastShowAt = now
        return show(f)
    }
}
