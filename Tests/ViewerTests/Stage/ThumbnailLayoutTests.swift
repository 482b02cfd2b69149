import Testing
@testable import Viewer
import Windowing

/// The SPEC's minimize geometry as arithmetic: frame, clamps, interpolation, thresholds.
@Suite
struct ThumbnailLayoutTests {
    @Test("Default thumbnail: a third of W, 9/16 high, 12 px from the right and bottom")
    func defaultFrame() {
        let l = ThumbnailLayout(screenWidth: 1920, screenHeight: 1080, widthRatio: 1.0 / 3.0, aspectRatio: 9.0 / 16.0,
                                bottomBuffer: 0)
        #expect(l.minimizedFrame == Rect(x: 1920 - 12 - 640, y: 1080 - 12 - 360, width: 640, height: 360))
    }

    @Test("Bottom buffer, square and portrait presets", arguments: [
        (1.0, 40, Rect(x: 1280 - 12 - 427, y: 720 - 12 - 40 - 427, width: 427, height: 427)),
        (16.0 / 9.0, 0, Rect(x: 1280 - 12 - 427, y: 720 - 12 - 759, width: 427, height: 759)),
    ])
    func presets(aspect: Double, buffer: Int, expected: Rect) {
        let l = ThumbnailLayout(screenWidth: 1280, screenHeight: 720, widthRatio: 1.0 / 3.0, aspectRatio: aspect,
                                bottomBuffer: buffer)
        #expect(l.minimizedFrame == expected)
    }

    @Test("Ratios are clamped: aspect to [9/16, 16/9], width to [0.1, (W-24)/W]")
    func clamps() {
        let tiny = ThumbnailLayout(screenWidth: 1000, screenHeight: 800, widthRatio: 0.01, aspectRatio: 0.1, bottomBuffer: 0)
        #expect(tiny.widthRatio == 0.1)
        #expect(tiny.aspectRatio == 9.0 / 16.0)
        let huge = ThumbnailLayout(screenWidth: 1000, screenHeight: 800, widthRatio: 5, aspectRatio: 9, bottomBuffer: -5)
        #expect(huge.widthRatio == 976.0 / 1000.0)
        #expect(huge.aspectRatio == 16.0 / 9.0)
        #expect(huge.bottomBuffer == 0)
    }

    @Test("The drag interpolates from fullscreen to the thumbnail with the right edge pinned")
    func interpolation() {
        let l = ThumbnailLayout(screenWidth: 1280, screenHeight: 720, widthRatio: 1.0 / 3.0, aspectRatio: 9.0 / 16.0,
                                bottomBuffer: 0)
        #expect(l.frame(progress: 0) == l.fullscreenFrame)
        #expect(l.frame(progress: 1) == l.minimizedFrame)
        let half = l.frame(progress: 0.5)
        let m = l.minimizedFrame
        #expect(half.width == Int((1280 - 0.5 * Double(1280 - m.width)).rounded()))
        #expect(half.maxX == Int((1280 - 0.5 * 12).rounded()))
        #expect(half.height == Int((720 - 0.5 * Double(720 - m.height)).rounded()))
        // Progress is the drag distance over maxY, clamped.
        #expect(l.progress(dragDY: l.maxY() / 2, startedMinimized: false) == 0.5)
        #expect(l.progress(dragDY: -50, startedMinimized: false) == 0)
        #expect(l.progress(dragDY: -l.maxY() / 4, startedMinimized: true) == 0.75)
    }

    @Test("Release thresholds: 40 %, 75 % from the thumbnail, 40 % of the width to throw away")
    func thresholds() {
        #expect(ThumbnailLayout.settlesMinimized(progress: 0.4, startedMinimized: false))
        #expect(!ThumbnailLayout.settlesMinimized(progress: 0.39, startedMinimized: false))
        #expect(!ThumbnailLayout.settlesMinimized(progress: 0.74, startedMinimized: true))
        #expect(ThumbnailLayout.settlesMinimized(progress: 0.75, startedMinimized: true))
        let l = ThumbnailLayout(screenWidth: 1000, screenHeight: 1000, widthRatio: 0.3, aspectRatio: 1, bottomBuffer: 0)
        #expect(l.dismissesThumbnail(dragDX: 120))
        #expect(!l.dismissesThumbnail(dragDX: 119))
        #expect(l.dismissesDown(dragDY: 350, velocity: 0))
        #expect(!l.dismissesDown(dragDY: 300, velocity: 100))
        #expect(l.dismissesDown(dragDY: 260, velocity: 1500))
        #expect(!l.dismissesDown(dragDY: 240, velocity: 5000))
    }
}
