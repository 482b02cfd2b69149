import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// Video frames come on their timestamps against the clock, or as fast as they decode.
@Suite(.serialized) struct VideoTimingTests {
    /// Plays a 2 s, 25 fps red clip to its end; returns the run and the seconds it took.
    func playTwoSeconds(_ configure: (inout PlayerOptions) -> Void = { _ in }) throws
        -> (run: (frames: [ShownFrame], finished: Bool), took: Double, player: Player) {
        let path = try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 2, fps: 25)
        let d = PlayerDriver(path, configure: configure)
        _ = try d.ready()
        let start = MonotonicClock.seconds()
        let run = d.play(limit: 6)
        return ((run.frames, run.finished), MonotonicClock.seconds() - start, d.player)
    }

    @Test("A 2 s 25 fps video shows ~50 frames over ~2 s of real time, in order")
    func realTime() throws {
        let (run, took, player) = try playTwoSeconds()
        defer { player.close() }
        #expect(run.finished)
        #expect(run.frames.count >= 48 && run.frames.count <= 50, "\(run.frames.count) frames shown")
        #expect(player.droppedFrames <= 2, "\(player.droppedFrames) dropped")
        let pts = run.frames.map(\.pts)
        #expect(zip(pts, pts.dropFirst()).allSatisfy { $0 < $1 }, "pts not increasing")
        guard let first = run.frames.first, let last = run.frames.last else { return }
        // Frame n shows n/25 s after the first: the span is 1.96 s, and it ends after 2 s.
        #expect(abs((last.at - first.at) - (last.pts - first.pts)) < 0.08,
                "shown over \(last.at - first.at) s for \(last.pts - first.pts) s of pts")
        #expect(abs(took - 2.0) < 0.25, "took \(took) s")
        // Each frame on time against the wall clock (measured from the first one).
        for f in run.frames {
            let late = (f.at - first.at) - (f.pts - first.pts)
            #expect(abs(late) < 0.05, "pts \(f.pts) shown \(late) s off")
            if abs(late) >= 0.05 { break }
        }
    }

    @Test("Untimed mode shows every frame much faster than real time")
    func untimed() throws {
        let (run, took, player) = try playTwoSeconds { $0.untimed = true }
        defer { player.close() }
        #expect(run.finished)
        #expect(run.frames.count == 50, "\(run.frames.count) frames")
        #expect(took < 1.0, "untimed took \(took) s for 2 s of video")
        #expect(player.droppedFrames == 0)
    }

    @Test("A 10 fps video holds each frame for 100 ms")
    func slowFrameRate() throws {
        let path = try Fixtures.solidVideo("blue", width: 160, height: 120, seconds: 1, fps: 10)
        let d = PlayerDriver(path)
        defer { d.player.close() }
        _ = try d.ready()
        let run = d.play(limit: 4)
        #expect(run.finished)
        #expect(run.frames.count == 10, "\(run.frames.count) frames")
        let at = run.frames.map(\.at)
        for (a, b) in zip(at, at.dropFirst()) {
            #expect(abs((b - a) - 0.1) < 0.03, "gap \(b - a)")
        }
    }
}
