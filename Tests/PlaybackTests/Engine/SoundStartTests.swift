import Foundation
import Testing
import TestSupport
@testable import Playback

/// A video's sound starts with its first picture, however long that picture takes.
@Suite(.serialized) struct SoundStartTests {
    /// Half a second of 4K noise with a tone: its first keyframe takes the decoder far
    /// longer than the sound takes to start.
    static func heavyStart() throws -> String {
        try Fixtures.make("noise-4k-tone.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30,noise=alls=24:allf=t",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", "0.5", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac",
        ])
    }

    @Test("A video slow to show its first picture does not start its sound before it")
    func soundWaitsForTheFirstPicture() throws {
        let d = PlayerDriver(try Self.heavyStart(), audio: true)
        defer { d.player.close() }
        _ = try d.ready()
        d.player.setPaused(false)
        let run = d.play(limit: 10) { $0.count >= 2 }
        let first = try #require(run.frames.first, "no picture")
        #expect(d.player.hasAudioOutput, "no sound server in the test environment")
        // Had the sound started first, the clock (the speaker's) would already be past the
        // first picture's time, and the frames after it late.
        #expect(first.position - first.pts < 0.04,
                "the first picture (\(first.pts) s) came when the sound was at \(first.position) s")
        #expect(run.frames.count == 2, "the picture moved on with the sound")
    }
}
