import Foundation
import Testing
import TestSupport
@testable import Playback

/// Precise seeks: the picture and the sound start at the target, not at the keyframe
/// before it (which a long GOP puts far back).
@Suite(.serialized) struct ExactSeekTests {
    /// 4 s with a single keyframe at 0: red until 1.5 s, then blue; 440 Hz until 2.5 s,
    /// then 1760 Hz. A keyframe seek to anywhere lands on the red start and the low tone.
    static func oneGOP() throws -> String {
        try Fixtures.make("pt-one-gop-red-blue-440-1760.mp4", [
            "-f", "lavfi", "-i", "color=c=red:s=160x120:r=25:d=1.5",
            "-f", "lavfi", "-i", "color=c=blue:s=160x120:r=25:d=2.5",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2.5",
            "-f", "lavfi", "-i", "sine=frequency=1760:sample_rate=48000:duration=1.5",
            "-filter_complex", "[0:v][1:v]concat=n=2:v=1[v];[2:a][3:a]concat=n=2:v=0:a=1[a]",
            "-map", "[v]", "-map", "[a]",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0",
            "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac"])
    }

    @Test("An exact seek into a GOP shows the frame at the target first, a keyframe seek the keyframe",
          arguments: [true, false])
    func picture(exact: Bool) throws {
        let d = PlayerDriver(try Self.oneGOP(), audio: false)
        defer { d.player.close() }
        _ = try d.ready()
        _ = d.play(limit: 0.2, colors: true)
        d.player.seek(to: 2.0, exact: exact)
        let after = d.play(limit: 0.5, colors: true).frames
        let first = try #require(after.first, "nothing shown after the seek")
        if exact {
            #expect(abs(first.pts - 2.0) < 0.041, "first frame after the exact seek has pts \(first.pts)")
            #expect(Colour.near(first.color!, Colour.blue), "first frame is \(Colour.text(first.color))")
            #expect(after.allSatisfy { $0.pts >= 1.96 }, "a frame from before the target was shown")
            // From there it plays on at normal speed.
            #expect(after.count >= 8, "\(after.count) frames in 0.5 s")
        } else {
            #expect(first.pts < 0.05, "keyframe seek started at \(first.pts)")
            #expect(Colour.near(first.color!, Colour.red))
        }
    }

    @Test("After an exact seek the sound heard is the sound at the target")
    func sound() throws {
        let d = PlayerDriver(try Self.oneGOP(), audio: true)
        defer { d.player.close() }
        _ = try d.ready()
        _ = d.play(limit: 0.3)
        #expect(d.player.hasAudioOutput)
        let rec = try AudioProbe.startRecording()
        usleep(300_000)
        d.player.seek(to: 2.6, exact: true)
        let after = d.play(limit: 0.8).frames
        let position = d.player.position
        let samples = AudioProbe.finish(rec)
        // Only what was recorded after the seek (the last 0.8 s) counts.
        let tail = Array(samples.suffix(48000 * 7 / 10))
        let f = try #require(AudioProbe.dominantFrequency(tail), "nothing audible after the seek")
        #expect(abs(f - 1760) <= 20, "heard \(f) Hz after seeking into the high tone")
        let first = try #require(after.first)
        #expect(abs(first.pts - 2.6) < 0.041, "first picture \(first.pts)")
        #expect(abs(position - 3.4) < 0.2, "position \(position) 0.8 s after seeking to 2.6")
    }

    @Test("An exact seek past the last picture of a shorter video track still shows the last picture")
    func pastLastPicture() throws {
        let path = try Fixtures.make("pt-short-lime-picture-long-sound.mkv", [
            "-f", "lavfi", "-i", "color=c=lime:s=160x120:r=25:d=1",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "250", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        let d = PlayerDriver(path, audio: false)
        defer { d.player.close() }
        _ = try d.ready()
        _ = d.play(limit: 0.2, colors: true)
        d.player.seek(to: 2.0, exact: true)
        let after = d.play(limit: 0.5, colors: true).frames
        let shown = try #require(after.first, "no picture after seeking past the video's end")
        #expect(shown.pts > 0.9 && shown.pts < 1.0, "showed pts \(shown.pts)")
        #expect(Colour.near(shown.color!, Colour.green))
    }
}

/// Seek targets no media has: ignored or clamped, and playback goes on.
@Suite(.serialized) struct SeekBadInputTests {
    @Test("NaN, infinities and huge seek targets neither crash nor stop playback",
          arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300])
    func oddTargets(target: Double) throws {
        let d = PlayerDriver(try ExactSeekTests.oneGOP(), audio: false)
        defer { d.player.close() }
        _ = try d.ready()
        _ = d.play(limit: 0.2)
        d.player.seek(to: target, exact: true)
        let after = d.play(limit: 0.5)
        // Either it stayed (NaN, infinity: ignored) or it went to an end of the media.
        #expect(!after.frames.isEmpty || after.finished, "nothing shown and not finished after seek(to: \(target))")
        #expect(d.player.position.isFinite)
    }
}
