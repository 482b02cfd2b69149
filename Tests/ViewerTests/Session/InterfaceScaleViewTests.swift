import Testing
import TestSupport
@testable import Windowing
@testable import Viewer

/// A view's overlays at the scale its owner or the desktop asks for.
@Suite(.serialized)
@MainActor
struct InterfaceScaleViewTests {
    @Test("Previews are on and the scale follows the desktop by default; a fixed 2x doubles the track, the close button and the preview")
    func fixedScale() throws {
        let h = QueueHarness()
        let v = MediaView()
        #expect(v.shouldShowTrackPreviews && v.trackPreviewWidth == 160 && v.interfaceScale == nil)
        v.shouldAutoPlayAfterPresentation = false
        v.playerOptions.audio = false
        v.setVideo(url: try Fixtures.colourSeconds())
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { v.hasPicture }
        let s = try #require(v.session)
        let bounds = Rect(x: 0, y: 0, width: 1280, height: 720)
        // The test display has no Xft.dpi and a 96 dpi screen.
        #expect(v.currentInterfaceScale == .one)
        let one = (s.trackRect(in: bounds), try #require(s.closeButtonRect(in: bounds)), s.previewWidth)
        v.interfaceScale = .two
        #expect(v.currentInterfaceScale == .two)
        let two = (s.trackRect(in: bounds), try #require(s.closeButtonRect(in: bounds)), s.previewWidth)
        #expect(two.0.height == 2 * one.0.height && two.1.width == 2 * one.1.width && two.2 == 2 * one.2,
                "\(one) -> \(two)")
        v.interfaceScale = .oneAndHalf
        #expect(s.trackRect(in: bounds).height == one.0.height * 3 / 2)
        h.queue.shutdown()
    }
}
