import Foundation
import MediaCore
import Playback
import Testing
import TestSupport
@testable import Viewer

/// Stepping from one picture to the next, as image viewers do it: the previous picture
/// stays until the next is ready, with no black frame or spinner flashing between; a
/// picture that takes longer shows the loading indicator after a moment, and the indicator
/// turns at a steady pace rather than as fast as the X server takes frames.
@Suite(.serialized)
@MainActor
struct QueueStepTests {
    /// What reached the screen, in order.
    final class Screenings: MediaViewDelegate {
        var frames = 0
        func didShowFirstFrame(for mediaView: MediaView) { frames += 1 }
    }

    static let green: UInt32 = 0x008000, red: UInt32 = 0xFF0000

    /// An 800x600 window showing a green picture that fills it, and a red one of the same
    /// size served after `delay` ms, at an address no other test asks for.
    func harness(delay: Int, tag: String) throws -> (QueueHarness, MediaView, Screenings) {
        let h = QueueHarness()
        h.queue.presentation.geometry = (800, 600, 0, 0)
        let before = MediaView()
        before.setImage(url: try Fixtures.solidImage("green", width: 800, height: 600))
        h.queue.queue(mediaView: before)
        h.pump(seconds: 10) { before.hasPicture }
        h.pump(seconds: 0.05)
        let (next, seen) = try slowRed(delay: delay, tag: tag)
        return (h, next, seen)
    }

    /// A view of a red 800x600 picture served after `delay` ms, at an address no other test
    /// asks for, and what it tells of reaching the screen.
    func slowRed(delay: Int, tag: String) throws -> (MediaView, Screenings) {
        let name = "step-\(tag)-\(getpid()).png"
        let served = try TestEnvironment.httpRoot + "/" + name
        try? FileManager.default.removeItem(atPath: served)
        try FileManager.default.copyItem(atPath: try Fixtures.solidImage("red", width: 800, height: 600), toPath: served)
        let v = MediaView()
        v.setImage(url: try TestEnvironment.http + "/delay/\(delay)/" + name)
        let seen = Screenings()
        v.delegate = seen
        return (v, seen)
    }

    /// The window's colour at `(x, y)`, read back from the X server, and when, in seconds
    /// after `start`.
    func sample(_ h: QueueHarness, _ probe: ScreenProbe, since start: Double, x: Int = 200, y: Int = 150) -> (t: Double, rgb: UInt32)? {
        guard let w = h.queue.screenOrNil()?.stage.window else { return nil }
        let img = probe.grab(window: w.id, x: x, y: y, width: 1, height: 1)
        return (MonotonicClock.seconds() - start, img.pixel(0, 0) & 0xFFFFFF)
    }

    /// A picture that arrives within a moment replaces the previous one directly: every
    /// sample of the window until then is the previous picture, never black.
    @Test func aPictureReadyWithinAMomentReplacesThePreviousOneWithNothingBetween() throws {
        let (h, next, seen) = try harness(delay: 60, tag: "quick")
        defer { h.queue.shutdown() }
        let probe = try ScreenProbe()
        let start = MonotonicClock.seconds()
        h.queue.present(mediaView: next, animated: false)
        var samples: [(t: Double, rgb: UInt32)] = []
        h.pump(seconds: 10) {
            if let s = sample(h, probe, since: start) { samples.append(s) }
            return seen.frames > 0
        }
        h.pump(seconds: 0.05)
        #expect(seen.frames == 1)
        // Within the hold, the window shows the green picture or the red one, nothing else.
        let early = samples.filter { $0.t < Stage.stillHold - 0.02 }
        #expect(!early.isEmpty)
        let others = early.filter { !near($0.rgb, Self.green, 40) && !near($0.rgb, Self.red, 40) }
        #expect(others.isEmpty, "between the pictures the window showed \(others.map { String($0.rgb, radix: 16) })")
        let last = sample(h, probe, since: start)
        #expect(last.map { near($0.rgb, Self.red, 40) } == true, "the red picture is not on screen")
    }

    /// The first item has no picture to hold: the window stays black while it opens, and
    /// the loading indicator turns only once it has taken a moment, so a photo that opens
    /// sooner never flashes a spinner before it.
    @Test func theFirstItemsLoadingIndicatorWaitsAMoment() throws {
        let h = QueueHarness()
        h.queue.presentation.geometry = (800, 600, 0, 0)
        let (v, seen) = try slowRed(delay: 900, tag: "first")
        defer { h.queue.shutdown() }
        let probe = try ScreenProbe()
        let start = MonotonicClock.seconds()
        h.queue.queue(mediaView: v)
        // Near-white pixels where the indicator turns, in the middle of the window.
        var samples: [(t: Double, white: Int)] = []
        h.pump(seconds: 20) {
            if let w = h.queue.screenOrNil()?.stage.window {
                let img = probe.grab(window: w.id, x: 352, y: 252, width: 96, height: 96)
                var white = 0
                for y in 0..<96 { for x in 0..<96 where img.pixel(x, y) & 0xFFFFFF > 0xC0C0C0 { white += 1 } }
                samples.append((MonotonicClock.seconds() - start, white))
            }
            return seen.frames > 0
        }
        #expect(seen.frames == 1)
        let early = samples.filter { $0.t < MediaSession.loadingIndicatorDelay - 0.03 }
        #expect(!early.isEmpty && early.allSatisfy { $0.white == 0 }, "an indicator flashed at once: \(early)")
        let later = samples.filter { $0.t > MediaSession.loadingIndicatorDelay + 0.1 && $0.t < 0.8 }
        #expect(later.contains { $0.white > 20 }, "no indicator while the picture took long: \(later.map(\.white))")
    }

    /// A picture that takes longer is not waited for in silence: after the moment the
    /// window shows the loading state, whose indicator is drawn about thirty times a second
    /// (it was drawn as fast as the X server took frames, hundreds of whole-window draws a
    /// second that took the cores from the decoding it waited for), then the picture.
    @Test func aSlowPictureShowsTheLoadingStateAfterAMomentAtASteadyPace() throws {
        let (h, next, seen) = try harness(delay: 1500, tag: "slow")
        defer { h.queue.shutdown() }
        let probe = try ScreenProbe()
        let stage = try #require(h.queue.screenOrNil()?.stage)
        let start = MonotonicClock.seconds()
        h.queue.present(mediaView: next, animated: false)
        let drawsBefore = stage.drawing.draws.count
        var samples: [(t: Double, rgb: UInt32)] = []
        h.pump(seconds: 20) {
            if let s = sample(h, probe, since: start) { samples.append(s) }
            return seen.frames > 0
        }
        let waited = MonotonicClock.seconds() - start
        let draws = stage.drawing.draws.count - drawsBefore
        #expect(seen.frames == 1)
        #expect(waited >= 1.4, "the server's delay was not felt: \(waited) s")
        let held = samples.filter { $0.t < Stage.stillHold - 0.02 }
        #expect(!held.isEmpty && held.allSatisfy { near($0.rgb, Self.green, 40) }, "the previous picture did not stay for the moment")
        let loading = samples.filter { $0.t > Stage.stillHold + 0.1 && $0.t < 1.3 }
        #expect(!loading.isEmpty && loading.allSatisfy { $0.rgb == 0 }, "the loading state was not shown after the moment")
        // Thirty a second over the wait, and a few for the picture and the loop's turns.
        #expect(draws <= Int(waited * 30) + 10, "\(draws) draws in \(waited) s of loading")
        #expect(draws >= Int(waited * 15), "the indicator stopped turning: \(draws) draws in \(waited) s")
    }
}
