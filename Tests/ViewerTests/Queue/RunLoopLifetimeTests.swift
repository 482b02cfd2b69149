import Dispatch
import Foundation
import Testing
import TestSupport
@testable import Viewer

/// `run()` lives as an app's run loop does, the thumbnail shows until playback starts, and
/// MediaView's defaults: what an app written against MediaView's README sees.
@Suite(.serialized)
@MainActor
struct RunLoopLifetimeTests {
    /// Stops the queue once a view's first picture is on screen, noting the order of calls.
    final class StopOnFirstFrame: MediaViewDelegate {
        let queue: MediaQueue
        var log: [String] = []
        init(queue: MediaQueue) { self.queue = queue }
        func willPresent(mediaView: MediaView) { log.append("willPresent") }
        func didPresent(mediaView: MediaView) { log.append("didPresent") }
        func didShowFirstFrame(for mediaView: MediaView) {
            log.append("didShowFirstFrame")
            queue.stop()
        }
    }

    func makeQueue() -> MediaQueue {
        let q = MediaQueue()
        q.presentation.windowed = true
        q.presentation.geometry = (160, 120, 0, 0)
        return q
    }

    @Test("run() on an empty queue waits, and presents a view queued 0.4 s later until stop()")
    func presentsLateView() async throws {
        let q = makeQueue()
        let v = MediaView()
        v.setImage(url: try Fixtures.solidImage("red", width: 64, height: 48))
        let d = StopOnFirstFrame(queue: q)
        v.delegate = d
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.4) { MainActor.assumeIsolated { q.queue(mediaView: v) } }
        // A limit, so a broken loop fails the test instead of hanging it.
        DispatchQueue.main.asyncAfter(deadline: .now() + 30) { MainActor.assumeIsolated { q.stop() } }
        #expect(await q.run())
        #expect(d.log == ["willPresent", "didPresent", "didShowFirstFrame"])
        let shot = try QueueHarness(queue: q).grab()
        #expect(near(shot.pixel(80, 60) & 0xFFFFFF, 0xFF0000), "the late view's red is on screen")
        q.shutdown()
    }

    @Test("run() keeps running after the last view is dismissed; endsWhenEmpty ends it")
    func emptyQueue() async throws {
        let q = makeQueue()
        let v = MediaView()
        v.setImage(url: try Fixtures.solidImage("blue", width: 64, height: 48))
        q.queue(mediaView: v)
        q.dismissCurrent(animated: false)
        var turnsAfterEmpty = 0
        q.afterEachTurn {
            turnsAfterEmpty += 1
            if turnsAfterEmpty == 3 { q.stop() }
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { MainActor.assumeIsolated { q.screen?.loop.wake() } }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) { MainActor.assumeIsolated { q.screen?.loop.wake() } }
        DispatchQueue.main.asyncAfter(deadline: .now() + 30) { MainActor.assumeIsolated { q.stop() } }
        #expect(await q.run())
        #expect(turnsAfterEmpty >= 3, "the loop went on turning with nothing queued")
        q.endsWhenEmpty = true
        #expect(await q.run(), "with endsWhenEmpty an empty queue ends the run at once")
        q.shutdown()
    }

    @Test("a video's thumbnail shows until playback starts, not its first frame")
    func thumbnailBeforePlay() throws {
        let q = makeQueue()
        let h = QueueHarness(queue: q)
        let v = MediaView()
        v.shouldAutoPlayAfterPresentation = false
        v.setVideo(url: try Fixtures.solidVideo("red", width: 64, height: 48, seconds: 2),
                   thumbnailUrl: try Fixtures.solidImage("lime", width: 64, height: 48))
        q.queue(mediaView: v)
        h.pump(seconds: 15) { near(h.centreColour(v), 0x00FF00) }
        #expect(near(h.centreColour(v), 0x00FF00), "the green thumbnail shows before play")
        v.play()
        h.pump(seconds: 15) { near(h.centreColour(v), 0xFF0000, 60) }
        #expect(near(h.centreColour(v), 0xFF0000, 60), "the video's red once it plays")
        q.shutdown()
    }

    @Test("the library's defaults are MediaView's")
    func defaults() {
        let s = MediaView.Settings()
        #expect(s.minimizedWidthRatio == 0.5)
        #expect(CacheManager().cacheMediaWhenDownloaded == false)
        #expect(EdgeBuffer.statusBarBuffer.pixels == 20)
        #expect(EdgeBuffer.navigationBarBuffer.pixels == 44)
        #expect(EdgeBuffer.statusAndNavigationBuffer.pixels == 64)
        #expect(EdgeBuffer.tabBarBuffer.pixels == 49)
        #expect(MediaQueue().endsWhenEmpty == false)
    }

    @Test("rotating posts the rotation notifications where the delegate hears it")
    func rotationNotifications() throws {
        let q = makeQueue()
        let h = QueueHarness(queue: q)
        let v = MediaView()
        v.setImage(url: try Fixtures.solidImage("red", width: 64, height: 48))
        q.queue(mediaView: v)
        h.pump(seconds: 10) { v.info != nil }
        var heard: [String] = []
        let a = MediaNotifications.shared.addObserver(for: .mediaViewWillRotateNotification) { if $0 === v { heard.append("will") } }
        let b = MediaNotifications.shared.addObserver(for: .mediaViewDidRotateNotification) { if $0 === v { heard.append("did") } }
        defer { MediaNotifications.shared.removeObserver(a); MediaNotifications.shared.removeObserver(b) }
        v.rotate(by: 90)
        #expect(heard == ["will", "did"])
        #expect(v.userRotation == 90)
        q.shutdown()
    }
}
