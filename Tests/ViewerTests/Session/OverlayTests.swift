import Foundation
import MediaCore
import Playback
import TestSupport
import Testing
@testable import Viewer
@testable import Windowing

/// Each overlay, read back from the real window: indicators in the theme colour, the track
/// following playback, title glyphs in the title band, a custom image replacing an indicator.
@Suite(.serialized)
@MainActor
struct OverlayTests {
    let theme: UInt32 = 0xFF00FF

    func show(_ configure: (MediaView) throws -> Void, until: (MediaView) -> Bool) throws -> (QueueHarness, MediaView, Image) {
        let h = QueueHarness()
        let v = MediaView()
        v.playerOptions.audio = false
        v.themeColor = Color(rgb: theme)
        try configure(v)
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { until(v) }
        h.pump(seconds: 0.2)
        let p = try #require(h.queue.screen?.stage)
        let img = try ScreenProbe().grab(window: p.window.id, x: 0, y: 0, width: 320, height: 240)
        return (h, v, img)
    }

    /// Pixels near `rgb` inside the central square where indicators are drawn.
    func centreShare(_ img: Image, _ rgb: UInt32) -> Double {
        img.fraction(matching: rgb, x: 130, y: 90, width: 60, height: 60, tolerance: 40)
    }

    @Test("The play indicator of a paused video is drawn in the theme colour")
    func playIndicator() throws {
        let (_, _, img) = try show({ v in
            v.shouldAutoPlayAfterPresentation = false
            v.setVideo(url: try Fixtures.solidVideo("blue", width: 320, height: 240, seconds: 2))
        }, until: { $0.hasPicture })
        #expect(centreShare(img, theme) > 0.05, "theme-coloured ring and triangle")
        #expect(img.matches(20, 120, 0x0000FF, tolerance: 40), "the video itself around it")
    }

    @Test("Hidden play button: no indicator")
    func hiddenPlayButton() throws {
        let (_, _, img) = try show({ v in
            v.shouldAutoPlayAfterPresentation = false
            v.shouldHidePlayButton = true
            v.setVideo(url: try Fixtures.solidVideo("blue", width: 320, height: 240, seconds: 2))
        }, until: { $0.hasPicture })
        #expect(centreShare(img, theme) == 0)
    }

    @Test("A failed item shows the fail indicator in the theme colour and the reason")
    func failIndicator() throws {
        let (_, v, img) = try show({ v in v.setVideo(url: "/nonexistent/missing.mp4") }, until: { $0.failure != nil })
        #expect(v.failure != nil)
        #expect(centreShare(img, theme) > 0.2)
        // The reason is written under the indicator in white.
        #expect(img.fraction(matching: 0xFFFFFF, x: 0, y: 150, width: 320, height: 40, tolerance: 60) > 0.005)
    }

    @Test("Audio without artwork shows the music indicator")
    func musicIndicator() throws {
        let (_, _, img) = try show({ v in v.setAudio(url: try Fixtures.tone(440, seconds: 2)) }, until: { $0.info != nil })
        #expect(centreShare(img, theme) > 0.05)
    }

    @Test("A custom play image replaces the built-in indicator")
    func customImage() throws {
        let (_, _, img) = try show({ v in
            v.shouldAutoPlayAfterPresentation = false
            v.customPlayButton = RGBAImage(width: 8, height: 8, color: Color(rgb: 0x00FF00))
            v.setVideo(url: try Fixtures.solidVideo("blue", width: 320, height: 240, seconds: 2))
        }, until: { $0.hasPicture })
        #expect(centreShare(img, 0x00FF00) > 0.3, "the custom (green) image")
        #expect(centreShare(img, theme) == 0, "and not the built-in one")
    }

    @Test("The title draws glyph pixels in the title band; without a title the band stays the picture")
    func title() throws {
        let (h, v, img) = try show({ v in
            v.shouldAutoPlayAfterPresentation = false
            v.setTitle("Hello ÜTF-8 ✓", details: "details")
            v.setVideo(url: try Fixtures.solidVideo("black", width: 320, height: 240, seconds: 2))
        }, until: { $0.hasPicture })
        let white = img.fraction(matching: 0xFFFFFF, x: 0, y: 10, width: 320, height: 30, tolerance: 60)
        #expect(white > 0.01, "glyphs in the band: \(white)")
        v.setTitle(nil)
        h.queue.screen?.stage.needsRedraw = true
        h.pump(seconds: 0.2)
        let p = try #require(h.queue.screen?.stage)
        let plain = try ScreenProbe().grab(window: p.window.id, x: 0, y: 0, width: 320, height: 240)
        #expect(plain.fraction(matching: 0xFFFFFF, x: 0, y: 10, width: 260, height: 30, tolerance: 60) == 0)
    }

    @Test("The track's progress follows playback")
    func trackFollows() throws {
        let (h, v, first) = try show({ v in
            v.setVideo(url: try Fixtures.solidVideo("black", width: 320, height: 240, seconds: 4))
        }, until: { $0.hasPicture })
        let p = try #require(h.queue.screen?.stage)
        p.controls.until = MonotonicClock.seconds() + 60
        func progressPixels() throws -> Int {
            p.needsRedraw = true
            h.pump(seconds: 0.05)
            let img = try ScreenProbe().grab(window: p.window.id, x: 0, y: 0, width: 320, height: 240)
            let bar = try #require(v.trackLayout(in: Rect(x: 0, y: 0, width: 320, height: 240))).bar
            return (bar.x..<bar.maxX).filter { img.matches($0, bar.y + bar.height / 2, theme, tolerance: 40) }.count
        }
        _ = first
        let early = try progressPixels()
        h.pump(seconds: 1.5)
        let later = try progressPixels()
        #expect(later > early + 10, "progress grew from \(early) to \(later) px")
        #expect(v.position > 1.0)
    }
}
