import Foundation
import Playback
import TestSupport
import Testing
@testable import Viewer
import Web
@testable import Windowing

/// Hovering a video's track shows a picture of the hovered time above the pointer.
@Suite(.serialized)
@MainActor
struct TrackPreviewTests {
    @Test("Hovering at three places shows the picture of each place's second above the pointer")
    func hoverShowsTheHoveredTime() throws {
        let h = QueueHarness()
        let v = MediaView()
        v.shouldAutoPlayAfterPresentation = false
        v.playerOptions.audio = false
        v.setVideo(url: try Fixtures.colourSeconds())
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { v.hasPicture }
        let s = try #require(v.session)
        let (width, height) = (640, 360)
        let bounds = Rect(x: 0, y: 0, width: width, height: height)
        let layout = try #require(s.trackLayout(in: bounds))
        var pixels = [UInt32](repeating: 0, count: width * height)
        for x in [layout.bar.x + 40, layout.bar.x + layout.bar.width / 2, layout.bar.maxX - 60] {
            let f = Indicators.progressFraction(atX: x, in: layout.bar)
            let second = min(5, Int(f * 6))
            func draw() -> UInt32 {
                pixels.withUnsafeMutableBytes { raw in
                    let buf = PixelBuffer(base: raw.baseAddress!, width: width, height: height, stride: width * 4)
                    s.render(into: buf, state: MediaSession.RenderState(now: 0, showControls: true, trackHover: true,
                                                                        pointerX: x))
                    // The middle of the 160 x 90 picture: above the label, which is 24 px over the band.
                    let px = max(4 + 80, min(width - 84, x))
                    return buf.pixel(x: px, y: layout.band.y - 24 - 6 - 45) & 0xFFFFFF
                }
            }
            _ = draw()
            h.pump(seconds: 3) { near(draw(), Fixtures.secondColours[second].rgb, 40) }
            let seen = draw()
            #expect(near(seen, Fixtures.secondColours[second].rgb, 40),
                    "hovering \(f * 6) s shows \(String(seen, radix: 16)), want \(Fixtures.secondColours[second].name)")
        }
        // The preview never touched the playing picture: still paused at the start.
        #expect(v.position < 0.1)
        h.queue.shutdown()
    }

    @Test("With previews turned off, or for audio, hovering shows only the time")
    func offAndAudio() throws {
        let h = QueueHarness()
        let v = MediaView()
        v.shouldAutoPlayAfterPresentation = false
        v.shouldShowTrackPreviews = false
        v.setVideo(url: try Fixtures.colourSeconds())
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { v.hasPicture }
        #expect(v.session?.trackPreview() == nil)
        let a = MediaView()
        a.setAudio(url: try Fixtures.tone(440, seconds: 2))
        h.queue.present(mediaView: a)
        h.pump(seconds: 5) { a.info != nil }
        #expect(a.session?.trackPreview() == nil)
        h.queue.shutdown()
    }

    @Test("A web video's previews go to the cache's previews directory and go when the cache is cleared")
    func webPreviewsOnDisk() throws {
        let base = ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_TMP"] ?? NSTemporaryDirectory()
        let dir = base + "/cm-previews-\(UUID().uuidString.prefix(8))"
        CacheManager.shared.configure(directory: dir, enabled: true)
        defer { CacheManager.shared.configure(directory: MediaCache.defaultRoot, enabled: true) }
        let name = "view-preview-\(UInt32.random(in: 0...UInt32.max)).mp4"
        try FileManager.default.copyItem(atPath: try Fixtures.colourSeconds(), toPath: try TestEnvironment.httpRoot + "/" + name)
        let url = try TestEnvironment.http + "/" + name
        func hoverFourSeconds() throws -> Bool {
            let h = QueueHarness()
            let v = MediaView()
            v.shouldAutoPlayAfterPresentation = false
            v.shouldCacheStreamedMedia = false
            v.playerOptions.audio = false
            v.setVideo(url: url)
            h.queue.queue(mediaView: v)
            h.pump(seconds: 10) { v.hasPicture }
            let s = try #require(v.session)
            var found = false
            h.pump(seconds: 5) {
                _ = s.trackPreview()?.previewer.request(at: 4.5)
                found = s.trackPreview()?.previewer.picture(at: 4.5).map {
                    let c = $0.averageColor()
                    return c.r < 40 && c.g > 200 && c.b > 200
                } ?? false
                return found
            }
            h.queue.shutdown()
            return found
        }
        #expect(try hoverFourSeconds(), "no cyan preview of 4.5 s from the web")
        let stored = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/previews")) ?? []
        #expect(stored.contains { $0.hasSuffix(".pv") } && stored.contains { $0.hasSuffix(".idx") }, "\(stored)")
        // Opened again, the stored index and picture serve at once.
        #expect(try hoverFourSeconds(), "no preview on the second opening")
        CacheManager.clear(directory: .all)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir + "/previews")) ?? ["?"]).isEmpty)
    }
}
