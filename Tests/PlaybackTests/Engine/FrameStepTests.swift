import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// Stepping through a paused video frame by frame, for longer than the paused sound's
/// queues hold, and back.
@Suite(.serialized) struct FrameStepTests {
    /// Pumps the player until it shows a frame; nil when none comes within `timeout`.
    func nextShown(_ d: PlayerDriver, timeout: Double = 3) -> VideoFrame? {
        let end = MonotonicClock.seconds() + timeout
        while MonotonicClock.seconds() < end {
            switch d.player.nextFrame() {
            case .show(let f): return f
            default: usleep(2_000)
            }
        }
        return nil
    }

    @Test func stepsGoOneFrameAtATimeFarPastWhatThePausedSoundHolds() throws {
        let path = try Fixtures.solidVideo("green", seconds: 10, fps: 25, tone: 440)
        let d = PlayerDriver(path, audio: true) { $0.startPaused = true }
        defer { d.player.close() }
        _ = try d.ready()
        let first = try #require(nextShown(d), "no first frame")
        #expect(d.player.isPaused)
        var pts = first.pts
        // 240 steps of 40 ms are 9.6 s: more than the 256 sound packets (about 5.4 s) the
        // demuxer can queue for a paused sound.
        for step in 1...240 {
            #expect(d.player.stepFrame(forward: true))
            guard let f = nextShown(d) else {
                Issue.record("step \(step) showed nothing (at \(pts) s)")
                return
            }
            #expect(abs(f.pts - (pts + 0.04)) < 0.005, "step \(step): \(pts) -> \(f.pts)")
            pts = f.pts
        }
        #expect(abs(d.player.position - pts) < 0.005, "the position is the frame shown")
        for step in 1...3 {
            #expect(d.player.stepFrame(forward: false))
            guard let f = nextShown(d) else {
                Issue.record("step back \(step) showed nothing (at \(pts) s)")
                return
            }
            #expect(abs(f.pts - (pts - 0.04)) < 0.005, "step back \(step): \(pts) -> \(f.pts)")
            pts = f.pts
        }
        #expect(d.player.isPaused, "steps leave it paused")
    }
}
