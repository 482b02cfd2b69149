import Foundation
import Testing
import TestSupport
@testable import Playback

/// Seeking lands where asked and leaves no stale picture; pausing freezes picture and clock.
@Suite(.serialized) struct SeekPauseTests {
    /// 4 s: red for 2 s, then blue for 2 s, a keyframe every second (so every whole second
    /// is a seek point and the colour proves which side of 2 s a frame is from).
    static func redThenBlue() throws -> String {
        try Fixtures.make("pt-red-then-blue-4s.mp4", [
            "-f", "lavfi", "-i", "color=c=red:s=160x120:r=25:d=2",
            "-f", "lavfi", "-i", "color=c=blue:s=160x120:r=25:d=2",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
            "-filter_complex", "[0:v][1:v]concat=n=2:v=1[v]", "-map", "[v]", "-map", "2:a",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p", "-c:a", "aac"])
    }

    @Test("Seeking to 2.0 s shows the frame at 2.0 s (blue) next, and nothing older", arguments: [false, true])
    func seekForward(audio: Bool) throws {
        let d = PlayerDriver(try Self.redThenBlue(), audio: audio)
        defer { d.player.close() }
        _ = try d.ready()
        // Play a little of the red part first (ten frames, however long a busy machine takes),
        // so there are frames in flight to go stale.
        let before = d.play(limit: 10, colors: true) { $0.count >= 10 }.frames
        #expect(!before.isEmpty && Colour.near(before[0].color!, Colour.red))
        let droppedBefore = d.player.droppedFrames
        d.player.seek(to: 2.0)
        // Fifteen frames shown or dropped as late, however long the sound takes to restart on
        // a busy machine: what is checked is which frames come, not how fast (speed has tests
        // and a bench of its own).
        let after = d.play(limit: 20, colors: true) { $0.count + d.player.droppedFrames - droppedBefore >= 15 }.frames
        let dropped = d.player.droppedFrames - droppedBefore
        let first = try #require(after.first, "nothing shown after the seek")
        #expect(abs(first.pts - 2.0) <= 0.1, "first frame after the seek has pts \(first.pts)")
        #expect(Colour.near(first.color!, Colour.blue), "first frame after the seek is \(Colour.text(first.color))")
        for f in after {
            #expect(f.pts >= 1.95, "stale frame pts \(f.pts) after seeking to 2.0")
            #expect(Colour.near(f.color!, Colour.blue), "pts \(f.pts) is \(Colour.text(f.color))")
        }
        // Playback goes on from there frame after frame (25 fps), none repeated; a frame is
        // skipped only when the player dropped it as late (a busy machine, the sound's clock
        // running on), and the clock follows the pictures.
        #expect(after.count + dropped >= 15, "\(after.count) frames after the seek, \(dropped) dropped")
        let steps = zip(after, after.dropFirst()).map { $1.pts - $0.pts }
        let frames = steps.map { ($0 / 0.04).rounded() }
        #expect(zip(steps, frames).allSatisfy { $1 >= 1 && abs($0 - $1 * 0.04) < 0.005 }, "pts steps after the seek: \(steps)")
        #expect(Int(frames.reduce(0, +)) - frames.count <= dropped, "frames skipped but not dropped: \(steps)")
        if dropped == 0, let last = after.last {
            #expect(abs(d.player.position - last.pts) < 0.1, "position \(d.player.position), last picture \(last.pts)")
        }
        if dropped > 0 { print("seekForward(audio: \(audio)): \(dropped) frames dropped as late after the seek") }
    }

    @Test("Seeking back from the blue part to 1.0 s shows red again", arguments: [false, true])
    func seekBack(audio: Bool) throws {
        let d = PlayerDriver(try Self.redThenBlue(), audio: audio)
        defer { d.player.close() }
        _ = try d.ready()
        d.player.seek(to: 3.0)
        // Frames counted, not time: a busy machine may take longer to show them.
        let blue = d.play(limit: 10, colors: true) { $0.count >= 5 }.frames
        #expect(blue.first.map { abs($0.pts - 3.0) <= 0.1 } == true, "seek to 3.0 gave \(blue.map(\.pts))")
        d.player.seek(to: 1.0)
        let red = d.play(limit: 10, colors: true) { $0.count >= 5 }.frames
        let first = try #require(red.first)
        #expect(abs(first.pts - 1.0) <= 0.1, "pts \(first.pts)")
        for f in red {
            #expect(f.pts < 2 && Colour.near(f.color!, Colour.red), "pts \(f.pts) \(Colour.text(f.color))")
        }
    }

    @Test("Seeking past the end clamps and finishes instead of hanging")
    func seekPastEnd() throws {
        let d = PlayerDriver(try Self.redThenBlue())
        defer { d.player.close() }
        _ = try d.ready()
        _ = d.play(limit: 10) { !$0.isEmpty }
        d.player.seek(to: 99)
        // Bounded so a hang fails; finishing is what is checked, not how soon.
        let run = d.play(limit: 20, colors: true)
        #expect(run.finished)
        if let last = run.frames.last {
            #expect(last.pts > 3.0 && Colour.near(last.color!, Colour.blue), "last pts \(last.pts)")
        }
    }

    @Test("While paused no frame comes and the position stands still; resume goes on", arguments: [false, true])
    func pause(audio: Bool) throws {
        let d = PlayerDriver(try Self.redThenBlue(), audio: audio)
        defer { d.player.close() }
        _ = try d.ready()
        // Twelve frames in (with sound, the sink's start-up delay varies, so count frames).
        let early = d.play(limit: 10) { $0.count >= 12 }.frames
        #expect(early.count == 12)
        d.player.setPaused(true)
        #expect(d.player.isPaused)
        let p0 = d.player.position
        let during = d.idle(0.6)
        let p1 = d.player.position
        #expect(during.isEmpty, "\(during.count) frames while paused")
        #expect(abs(p1 - p0) < 0.005, "position moved \(p1 - p0) s while paused")
        #expect(abs(p0 - (early.last?.pts ?? 0)) < 0.06, "paused at \(p0), last picture \(early.last?.pts ?? -1)")
        d.player.setPaused(false)
        let resumed = d.play(limit: 10) { $0.count >= 8 }.frames
        let first = try #require(resumed.first, "nothing after resume")
        // Continues where it stopped: no jump over the paused time, no replay.
        #expect(first.pts > (early.last?.pts ?? 0) && first.pts - p0 < 0.1,
                "resumed at pts \(first.pts) after pausing at \(p0)")
        #expect(resumed.count == 8, "\(resumed.count) frames after resume")
        let pts = (early + resumed).map(\.pts)
        #expect(zip(pts, pts.dropFirst()).allSatisfy { $0 < $1 }, "pts went back: \(pts)")
        #expect(d.player.position > p0 + 0.2, "position \(d.player.position) after resume")
    }

    @Test("A player started paused shows its first picture and waits")
    func startPaused() throws {
        let d = PlayerDriver(try Self.redThenBlue()) { $0.startPaused = true }
        defer { d.player.close() }
        _ = try d.ready()
        // The first picture, however long it takes; then half a second in which no other
        // may come (the wait is what is checked).
        let first = d.play(limit: 10) { !$0.isEmpty }
        #expect(first.frames.count == 1, "no first picture while starting paused")
        let run = d.play(limit: 0.5)
        #expect(run.frames.isEmpty && !run.finished, "\(run.frames.count) more frames while starting paused")
        #expect(d.player.position < 0.05)
        d.player.setPaused(false)
        #expect(d.play(limit: 10) { $0.count >= 7 }.frames.count >= 7)
    }
}
