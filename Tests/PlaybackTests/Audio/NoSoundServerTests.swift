import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// Without a reachable PulseAudio, media with sound still plays, silently, on the system clock.
@Suite(.serialized) struct NoSoundServerTests {
    /// Runs `body` with PULSE_SERVER pointing at a socket that does not exist (the suites
    /// run one test at a time, so changing the process environment is safe here).
    func withoutPulse<T>(_ body: () throws -> T) rethrows -> T {
        let saved = getenv("PULSE_SERVER").map { String(cString: $0) }
        setenv("PULSE_SERVER", "unix:/nonexistent/mediaview-test/native", 1)
        defer {
            if let saved { setenv("PULSE_SERVER", saved, 1) } else { unsetenv("PULSE_SERVER") }
        }
        return try body()
    }

    @Test("A 2 s video with sound shows all its frames over ~2 s and finishes")
    func videoPlaysSilently() throws {
        let path = try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 2, fps: 25, tone: 440)
        try withoutPulse {
            let d = PlayerDriver(path, audio: true)
            defer { d.player.close() }
            let info = try d.ready()
            #expect(info.hasAudio)
            let start = MonotonicClock.seconds()
            let run = d.play(limit: 6)
            let took = MonotonicClock.seconds() - start
            #expect(!d.player.hasAudioOutput, "claims sound output with no server")
            #expect(run.finished, "never finished")
            #expect(run.frames.count >= 48, "\(run.frames.count) frames, \(d.player.droppedFrames) dropped")
            #expect(abs(took - 2.0) < 0.3, "took \(took) s")
            // Timed by the system clock: frame n shows n/25 s after the first.
            if let first = run.frames.first, let last = run.frames.last {
                #expect(abs((last.at - first.at) - (last.pts - first.pts)) < 0.08)
            }
        }
    }

    @Test("An audio-only file still lasts its length, so a progress bar would move")
    func audioLastsItsLength() throws {
        let path = try Fixtures.tone(1000, seconds: 1)
        try withoutPulse {
            let d = PlayerDriver(path, audio: true)
            defer { d.player.close() }
            _ = try d.ready()
            let start = MonotonicClock.seconds()
            _ = d.play(limit: 0.5)
            let mid = d.player.position
            let run = d.play(limit: 4)
            let took = MonotonicClock.seconds() - start
            #expect(run.finished)
            #expect(abs(took - 1.0) < 0.3, "took \(took) s for 1 s of sound")
            #expect(abs(mid - 0.5) < 0.15, "position \(mid) after 0.5 s")
        }
    }

    @Test("The server's own environment comes back: sound plays again afterwards")
    func soundAgainAfterwards() throws {
        let path = try Fixtures.tone(1000, seconds: 0.3)
        withoutPulse {}
        let d = PlayerDriver(path, audio: true)
        defer { d.player.close() }
        _ = try d.ready()
        _ = d.play(limit: 3)
        #expect(d.player.hasAudioOutput)
    }
}
