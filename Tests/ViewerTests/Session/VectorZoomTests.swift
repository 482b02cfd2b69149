import Foundation
import Testing
import TestSupport
import Playback
@testable import Windowing
@testable import Viewer

/// An SVG is drawn at the size it is shown: zoomed in, it is drawn again at the new size,
/// so its edges stay sharp instead of a small bitmap being blown up.
@MainActor
@Suite(.serialized) struct VectorZoomTests {
    /// 40x30: black on the left half, white on the right; the edge at the centre.
    static func halves() throws -> String {
        try Fixtures.bytes("vt-halves.svg", Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">\
            <rect width="40" height="30" fill="white"/><rect width="20" height="30" fill="black"/></svg>
            """.utf8))
    }

    /// Pixels neither black nor white on the centre row of the view drawn at 320x240: how
    /// blurred the edge is.
    static func greys(_ v: MediaView) -> Int {
        let w = 320, h = 240
        var pixels = [UInt32](repeating: 0, count: w * h)
        return pixels.withUnsafeMutableBytes { raw in
            let buf = PixelBuffer(base: raw.baseAddress!, width: w, height: h, stride: w * 4)
            v.render(into: buf, state: MediaSession.RenderState(now: 0, showControls: false))
            return (0..<w).filter { x in
                let g = Int(buf.pixel(x: x, y: h / 2) >> 8 & 0xFF)
                return g > 30 && g < 225
            }.count
        }
    }

    @Test("Zoomed in, an SVG is drawn again at the zoomed size and its edge stays sharp")
    func zoomRedrawsSharp() throws {
        let h = QueueHarness()
        let v = MediaView()
        v.setImage(url: try Self.halves())
        h.queue.queue(mediaView: v)
        h.pump(seconds: 10) { v.hasPicture }
        let first = try #require(v.session?.frame, "no picture")
        #expect(first.width == 320 && first.height == 240, "drawn at the window's size: \(first.width)x\(first.height)")
        #expect(v.info?.width == 40, "its natural size is what 1:1 and zoom count")
        #expect(Self.greys(v) <= 1, "fitted, the edge is sharp")
        v.zoom(by: 1.5)  // 4x
        let blurred = Self.greys(v)  // this draw scales the 320x240 drawing up, and asks for a new one
        h.pump(seconds: 10) { v.session?.detail.frame != nil }
        let redrawn = try #require(v.session?.detail.frame,
                                   "no new drawing after zooming: \(v.session?.detail.failure ?? "none failed")")
        #expect(redrawn.width == 1280 && redrawn.height == 960, "drawn at \(redrawn.width)x\(redrawn.height)")
        let sharp = Self.greys(v)
        #expect(sharp <= 1 && blurred > sharp, "edge: \(blurred) grey pixels scaled up, \(sharp) redrawn")
    }
}
