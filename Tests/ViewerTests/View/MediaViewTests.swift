import Foundation
import Playback
import Testing
import TestSupport
@testable import Viewer

/// MediaView's own contract: completions, reset, failures and options.
@Suite(.serialized)
@MainActor
struct MediaViewTests {
    func pump(_ q: MediaQueue, seconds: Double, until done: () -> Bool) {
        QueueHarness(queue: q).pump(seconds: seconds, until: done)
    }

    func makeQueue() -> MediaQueue { QueueHarness().queue }

    final class Failures: MediaViewDelegate {
        var errors: [MediaError] = []
        var sizes: [(Int, Int)] = []
        func didFailToPlayMedia(for mediaView: MediaView, error: MediaError) { errors.append(error) }
        func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int)) { sizes.append(size) }
    }

    @Test("setImage's completion runs on the main actor once the image is known")
    func completion() throws {
        let q = makeQueue()
        let v = MediaView()
        var called = 0
        v.setImage(url: try Fixtures.solidImage("red", width: 80, height: 60)) { view in
            // The main actor is the UIKit "main thread" here; under Swift Testing it need not be
            // thread 1, so isolation is what is checked (a violation traps).
            MainActor.assertIsolated()
            #expect(view.info?.kind == .image)
            called += 1
        }
        q.queue(mediaView: v)
        pump(q, seconds: 5) { called > 0 && v.hasPicture }
        #expect(called == 1)
        #expect(v.info?.width == 80 && v.info?.height == 60)
    }

    @Test("A missing file fails with the file's name and the delegate hears it once")
    func missing() {
        let q = makeQueue()
        let v = MediaView()
        let d = Failures()
        v.delegate = d
        v.setVideo(url: "/nonexistent/dir/clip.mp4")
        q.queue(mediaView: v)
        pump(q, seconds: 2) { v.failure != nil }
        #expect(d.errors.count == 1)
        #expect(d.errors.first?.message.contains("clip.mp4") == true)
    }

    @Test("resetMedia leaves no player and no stale frame; the view takes new media after")
    func reuse() throws {
        let q = makeQueue()
        let v = MediaView()
        v.setImage(url: try Fixtures.solidImage("red", width: 64, height: 48))
        q.queue(mediaView: v)
        pump(q, seconds: 5) { v.hasPicture }
        #expect(v.hasPicture)
        v.resetMedia()
        #expect(v.session?.player == nil && v.session?.frame == nil && v.mediaURL == nil && v.failure == nil)
        v.setImage(url: try Fixtures.solidImage("blue", width: 64, height: 48))
        pump(q, seconds: 5) { v.hasPicture }
        let c = try #require(v.session?.frame).averageColor()
        #expect(c.b > 200 && c.r < 40, "the new image shows, not the old one: \(c)")
    }

    @Test("reset puts every option back to the seed's defaults")
    func resetOptions() {
        let v = MediaView()
        v.allowLooping = true
        v.shouldAutoPlayAfterPresentation = false
        v.swipeMode = .dismiss
        v.topBuffer = 30
        v.setTitle("t", details: "d")
        v.reset()
        #expect(!v.allowLooping && v.shouldAutoPlayAfterPresentation && v.swipeMode == .none)
        #expect(v.topBuffer == 0 && v.title == nil && v.details == nil)
    }

    @Test("minimizedAspectRatio is clamped to [9/16, 16/9]")
    func aspectClamp() {
        let v = MediaView()
        v.minimizedAspectRatio = 5
        #expect(v.minimizedAspectRatio == 16.0 / 9.0)
        v.minimizedAspectRatio = 0.1
        #expect(v.minimizedAspectRatio == 9.0 / 16.0)
    }

    @Test("playbackSpeed is kept within 0.25...4, NaN leaves it alone, and the player follows it")
    func speedClampAndApply() throws {
        let v = MediaView()
        #expect(v.playbackSpeed == 1)
        v.playbackSpeed = 10
        #expect(v.playbackSpeed == 4)
        v.playbackSpeed = 0
        #expect(v.playbackSpeed == 0.25)
        v.playbackSpeed = .nan
        #expect(v.playbackSpeed == 0.25)
        v.playbackSpeed = 1.5
        // Nothing opened: no frames to step through.
        #expect(!v.stepFrame(forward: true))
        let q = makeQueue()
        v.setVideo(url: try Fixtures.solidVideo("red", seconds: 4))
        q.queue(mediaView: v)
        pump(q, seconds: 5) { v.hasPicture }
        #expect(v.session?.player?.speed == PlaybackSpeed(1.5), "the player opened at the view's speed")
        v.playbackSpeed = 0.5
        #expect(v.session?.player?.speed == PlaybackSpeed(0.5), "a new speed reaches the playing player")
        v.play()
        #expect(v.isPlaying)
        #expect(v.stepFrame(forward: true), "a video steps")
        #expect(!v.isPlaying, "a step pauses first")
    }

    @Test("The speed keys change the whole queue's speed and say it on screen")
    func speedKeysSayTheSpeed() throws {
        let q = makeQueue()
        let a = MediaView(), b = MediaView()
        a.setVideo(url: try Fixtures.solidVideo("red", seconds: 4))
        b.setImage(url: try Fixtures.solidImage("blue"))
        q.queue(mediaViews: [a, b], startIndex: 0)
        pump(q, seconds: 5) { a.hasPicture }
        q.execute(.speed(.set(1.5)))
        #expect(a.messageText == "Speed: 1.50x", "\(String(describing: a.messageText))")
        #expect(a.playbackSpeed == 1.5 && b.playbackSpeed == 1.5, "the next item plays at the speed too")
        q.execute(.speed(.multiply(10)))
        #expect(a.messageText == "Speed: 4.00x" && a.playbackSpeed == 4)
    }

    @Test("A still has no frames to step through")
    func stillDoesNotStep() throws {
        let q = makeQueue()
        let v = MediaView()
        v.setImage(url: try Fixtures.solidImage("red"))
        q.queue(mediaView: v)
        pump(q, seconds: 5) { v.hasPicture }
        #expect(v.info?.kind == .image)
        #expect(!v.stepFrame(forward: true) && !v.stepFrame(forward: false))
    }

    @Test("setGIF(data:) plays GIF bytes held in memory")
    func gifData() throws {
        let path = try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 10)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let q = makeQueue()
        let v = MediaView()
        v.setGIF(data: data)
        q.queue(mediaView: v)
        pump(q, seconds: 5) { v.hasPicture }
        #expect(v.info?.kind == .animated)
        let tmp = try #require(v.content.files?.paths.first)
        v.resetMedia()
        #expect(!FileManager.default.fileExists(atPath: tmp), "the temporary copy is removed on reset")
    }

    @Test("formatTime: m:ss below an hour, h:mm:ss from an hour")
    func times() {
        #expect(MediaView.formatTime(65, longest: 100) == "1:05")
        #expect(MediaView.formatTime(65, longest: 4000) == "0:01:05")
        #expect(MediaView.formatTime(3725, longest: 4000) == "1:02:05")
        #expect(MediaView.formatTime(.nan, longest: 10) == "0:00")
    }
}
