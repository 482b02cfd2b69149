import Foundation
import MediaCore
import Playback
import TestSupport
import Testing
@testable import Viewer
@testable import Windowing

/// The presentation options of SPEC's table, each seen on a real window: content modes,
/// buffers, the close button's rules, title and details callbacks, autoplay, the track's
/// labels, dismissing after the end.
@Suite(.serialized)
@MainActor
struct PresentationTests {
    /// Records the callbacks these tests look for.
    final class Calls: MediaViewDelegate {
        var names: [String] = []
        func handleTitleSelection(in mediaView: MediaView) { names.append("title") }
        func handleDetailsSelection(in mediaView: MediaView) { names.append("details") }
        func didPlayMedia(for mediaView: MediaView) { names.append("play") }
        func didPauseMedia(for mediaView: MediaView) { names.append("pause") }
        func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool) { names.append("finish") }
        func didDismiss(mediaView: MediaView) { names.append("dismiss") }
    }

    func shown(_ configure: (MediaView) throws -> Void) throws -> (QueueHarness, MediaView, Calls) {
        let h = QueueHarness()
        let v = MediaView()
        let calls = Calls()
        v.delegate = calls
        v.playerOptions.audio = false
        try configure(v)
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { v.hasPicture || v.failure != nil }
        h.pump(seconds: 0.1)
        return (h, v, calls)
    }

    @Test("Aspect fit leaves black bars; aspect fill covers the window; videoAspectFit keeps video fitted")
    func contentModes() throws {
        // A 4:3 picture in a 4:3 window would show no bars either way: use a wide one.
        let wide = try Fixtures.solidImage("red", width: 320, height: 120)
        let (h1, _, _) = try shown { $0.setImage(url: wide) }
        let fit = try h1.grab()
        #expect(fit.matches(160, 10, 0x000000) && fit.matches(160, 120, 0xFF0000), "bars above and below")
        let (h2, _, _) = try shown { v in v.contentMode = .scaleAspectFill; v.setImage(url: wide) }
        let fill = try h2.grab()
        #expect(fill.fraction(matching: 0xFF0000, x: 0, y: 0, width: 320, height: 60) > 0.95, "no bar: filled")
        let wideVideo = try Fixtures.solidVideo("blue", width: 320, height: 120, seconds: 2)
        let (h3, _, _) = try shown { v in
            v.contentMode = .scaleAspectFill
            v.videoAspectFit = true
            v.shouldAutoPlayAfterPresentation = false
            v.setVideo(url: wideVideo)
        }
        let video = try h3.grab()
        // Row 90 lies in the picture (rows 60..<180) between the paused controls' two shades.
        #expect(video.matches(20, 10, 0x000000) && video.matches(20, 90, 0x0000FF), "video stays fitted")
    }

    @Test("Clicks on the title and on the details fire their callbacks; a click elsewhere toggles play")
    func titleAndDetailsClicks() throws {
        let clip = try Fixtures.solidVideo("black", width: 320, height: 240, seconds: 3)
        let (h, v, calls) = try shown { v in
            v.topBuffer = 20
            v.setTitle("Title", details: "Details")
            v.setVideo(url: clip)
        }
        let p = try #require(h.queue.screen?.stage)
        p.controls.until = MonotonicClock.seconds() + 60
        h.click(x: 40, y: 20 + 20)
        h.click(x: 40, y: 20 + 55)
        h.click(x: 40, y: 10)
        #expect(calls.names.filter { $0 == "title" || $0 == "details" } == ["title", "details"],
                "the top buffer above the title is not the title: \(calls.names)")
        let before = v.isPlaying
        h.click(x: 160, y: 150)
        #expect(v.isPlaying != before, "a click on the picture toggles play")
    }

    @Test("The close button sits below the top buffer; hiding it needs a swipe mode")
    func closeButtonRules() throws {
        let image = try Fixtures.solidImage("white", width: 320, height: 240)
        let (h, v, _) = try shown { v in
            v.topBuffer = 30
            v.shouldHideCloseButton = true
            v.swipeMode = .none
            v.setImage(url: image)
        }
        let p = try #require(h.queue.screen?.stage)
        p.controls.until = MonotonicClock.seconds() + 60
        let bounds = Rect(x: 0, y: 0, width: 320, height: 240)
        let r = try #require(v.closeButtonRect(in: bounds), "no swipe mode: the button cannot hide")
        #expect(r.y >= 30, "below the top buffer")
        p.needsRedraw = true
        h.pump(seconds: 0.1)
        let img = try h.grab()
        #expect(img.fraction(matching: 0xFFFFFF, x: r.x, y: r.y, width: r.width, height: r.height, tolerance: 20) < 0.7,
                "the button is drawn over the white picture")
        v.swipeMode = .minimize
        #expect(v.closeButtonRect(in: bounds) == nil, "with a swipe mode it may hide")
        // Clicking it dismisses the view.
        v.swipeMode = .none
        h.click(x: r.x + r.width / 2, y: r.y + r.height / 2)
        #expect(h.queue.current == nil)
    }

    @Test("Without autoplay the video waits paused; play() starts it")
    func autoplay() throws {
        let clip = try Fixtures.solidVideo("green", width: 160, height: 120, seconds: 2)
        let (h, v, calls) = try shown { v in v.shouldAutoPlayAfterPresentation = false; v.setVideo(url: clip) }
        #expect(!v.isPlaying && !calls.names.contains("play"))
        v.play()
        h.pump(seconds: 0.5)
        #expect(v.isPlaying && calls.names.contains("play"))
        #expect(v.position > 0.2)
    }

    @Test("Remaining time shows a minus and counts down; dismissAfterFinish moves on at the end")
    func remainingAndDismiss() throws {
        let clip = try Fixtures.solidVideo("gray", width: 160, height: 120, seconds: 1)
        let (h, v, calls) = try shown { v in
            v.shouldDisplayRemainingTime = true
            v.shouldDismissAfterFinishedPlaying = true
            v.setVideo(url: clip)
        }
        let layout = try #require(v.trackLayout(in: Rect(x: 0, y: 0, width: 320, height: 240)))
        #expect(layout.right.hasPrefix("-0:0"))
        h.pump(seconds: 4) { h.queue.current == nil }
        #expect(calls.names.contains("finish") && calls.names.last == "dismiss")
        #expect(h.queue.current == nil)
    }
}
