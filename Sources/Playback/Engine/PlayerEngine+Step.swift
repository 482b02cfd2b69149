/// Stepping one frame forward or back while paused, as mpv's `.` and `,` do.
extension PlayerEngine {
    /// Pauses (if playing) and shows the next frame, or the one before. False when the
    /// media has no frames to step through (a still, sound only), which is then left alone.
    func stepFrame(forward: Bool) -> Bool {
        guard let info, info.kind == .video || info.kind == .animated,
              scheduler.videoState != .absent else { return false }
        if !scheduler.paused { setPaused(true) }
        // Without sound nothing is left behind: playing goes on from the picture anyway.
        if hasAudioOutput { scheduler.step.soundBehind = true }
        if forward { scheduler.step.forwardPending = true }
        let shown = scheduler.step.shownPTS
        if forward {
            // The paused sound stops taking packets, so after seconds of steps the demuxer
            // waits for room in the sound's queue and no more frames come: start afresh
            // after the frame on screen instead.
            let packets = demux.audioPackets
            if video.frames.count == 0, packets.count >= packets.capacity - 1, let shown {
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
        let shown = scheduler.step.soundBehind ? scheduler.step.shownPTS : nil
        scheduler.step.soundBehind = false
        scheduler.step.forwardPending = false
        if let shown { seek(to: shown, exact: true) }
    }
}
