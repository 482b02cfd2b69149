import Foundation
import Testing
import TestSupport
@testable import Playback

/// At any speed, and after changing it or seeking, each picture is shown when the sound
/// heard is at its time: the clock the pictures follow is the speaker's.
@Suite(.serialized) struct SpeedSyncTests {
    /// Plays for `limit` seconds, measuring for each frame shown how far the sound being
    /// heard (the server's own account, not the player's clock) is from the frame's time,
    /// once the phase has settled (its first 0.4 s may still be easing in).
    func play(_ d: PlayerDriver, limit: Double) -> (frames: [ShownFrame], drift: [Double]) {
        var drift: [Double] = []
        let run = d.play(limit: limit) { shown in
            if let f = shown.last, let first = shown.first, f.at - first.at > 0.4,
               let heard = d.player.engine.audio?.position() {
                drift.append(abs(heard - f.pts))
            }
            return false
        }
        return (run.frames, drift)
    }

    @Test func pictureFollowsTheSoundAcrossSpeedChangesAndSeeks() throws {
        let path = try Fixtures.solidVideo("green", seconds: 20, tone: 440)
        let d = PlayerDriver(path, audio: true) { $0.speed = PlaybackSpeed(2)! }
        defer { d.player.close() }
        _ = try d.ready()
        d.player.setPaused(false)
        let fast = play(d, limit: 1.5)
        #expect(d.player.hasAudioOutput, "no sound server in the test environment")
        // 1.5 s at 2x covers about 3 s of media (generous: the machine is shared).
        let covered = (fast.frames.last?.pts ?? 0) - (fast.frames.first?.pts ?? 0)
        #expect((2.0...3.6).contains(covered), "1.5 s at 2x covered \(covered) s of media")
        #expect(!fast.drift.isEmpty && fast.drift.allSatisfy { $0 < 0.1 }, "2x: \(fast.drift.max() ?? -1) s apart")

        d.player.seek(to: 10, exact: true)
        let afterSeek = play(d, limit: 1.2)
        #expect((afterSeek.frames.first?.pts ?? 0) >= 9.95, "first frame after the seek at \(afterSeek.frames.first?.pts ?? -1)")
        #expect(!afterSeek.drift.isEmpty && afterSeek.drift.allSatisfy { $0 < 0.1 }, "after the seek: \(afterSeek.drift.max() ?? -1) s apart")

        d.player.setSpeed(PlaybackSpeed(0.5)!)
        let slow = play(d, limit: 1.5)
        let slowCovered = (slow.frames.last?.pts ?? 0) - (slow.frames.first?.pts ?? 0)
        #expect((0.4...1.1).contains(slowCovered), "1.5 s at 0.5x covered \(slowCovered) s of media")
        #expect(!slow.drift.isEmpty && slow.drift.allSatisfy { $0 < 0.1 }, "0.5x: \(slow.drift.max() ?? -1) s apart")
        #expect(d.player.speed == PlaybackSpeed(0.5))
    }

    @Test func speedsOutsideTheRangeAreRefusedOrClamped() {
        #expect(PlaybackSpeed(0) == nil && PlaybackSpeed(-1) == nil && PlaybackSpeed(4.01) == nil)
        #expect(PlaybackSpeed(.nan) == nil && PlaybackSpeed(.infinity) == nil)
        #expect(PlaybackSpeed(clamping: 100).factor == 4 && PlaybackSpeed(clamping: 0).factor == 0.25)
        #expect(PlaybackSpeed(clamping: .nan).isNormal)
        #expect(PlaybackSpeed(1.5)!.description == "1.50x")
    }
}
