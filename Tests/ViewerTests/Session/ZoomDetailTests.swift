import Foundation
import Testing
import TestSupport
import Playback
@testable import Windowing
@testable import Viewer

/// A photo decoded small for a fast first picture is decoded again at full size when the
/// user looks closer, so zooming shows its real detail.
@MainActor
@Suite(.serialized) struct ZoomDetailTests {
    /// 2400x1600 of 2-pixel black and white squares: flat grey at a quarter of the size.
    static func fineChecker() throws -> String {
        try Fixtures.make("vt-fine-checker-2400x1600.jpg", [
            "-f", "lavfi", "-i", "nullsrc=s=2400x1600,geq=lum='255*mod(floor(X/2)+floor(Y/2),2)':cb=128:cr=128",
            "-frames:v", "1", "-q:v", "2"])
    }

    /// Dark and light pixels in a 24x24 block at the centre of the view drawn at 320x240.
    static func contrast(_ v: MediaView) -> (dark: Int, light: Int) {
        let w = 320, h = 240
        var pixels = [UInt32](repeating: 0, count: w * h)
        return pixels.withUnsafeMutableBytes { raw in
            let buf = PixelBuffer(base: raw.baseAddress!, width: w, height: h, stride: w * 4)
            v.render(into: buf, state: MediaSession.RenderState(now: 0, showControls: false))
            var dark = 0, light = 0
            for y in (h / 2 - 12)..<(h / 2 + 12) {
                for x in (w / 2 - 12)..<(w / 2 + 12) {
                    let g = Int(buf.pixel(x: x, y: y) >> 8 & 0xFF)
                    if g < 60 { dark += 1 } else if g > 195 { light += 1 }
                }
            }
            return (dark, light)
        }
    }

    @Test("Shown 1:1, a photo decoded at a quarter of its size is decoded again at full size")
    func oneToOneShowsFullDetail() throws {
        let h = QueueHarness()
        let v = MediaView()
        v.setImage(url: try Self.fineChecker())
        h.queue.queue(mediaView: v)
        h.pump(seconds: 10) { v.hasPicture }
        let small = try #require(v.session?.frame, "no picture")
        #expect(small.displaySize.width < 2400, "the first picture was not decoded small: \(small.displaySize)")
        // Fitted, the small picture is all that is needed: grey, no second decode.
        h.pump(seconds: 0.3)
        #expect(v.session?.detail.player == nil && v.session?.detail.frame == nil)
        let fitted = Self.contrast(v)
        #expect(fitted.dark + fitted.light < 100, "fitted picture should be flat grey: \(fitted)")

        v.toggleFitNative()
        _ = Self.contrast(v)  // the first larger draw asks for the full-size picture
        h.pump(seconds: 10) { v.session?.detail.frame != nil }
        let full = try #require(v.session?.detail.frame, "no full-size picture after showing 1:1")
        #expect(full.displaySize == (2400, 1600))
        let sharp = Self.contrast(v)
        #expect(sharp.dark > 150 && sharp.light > 150, "1:1 shows the squares: \(sharp)")
        #expect(v.session?.detail.player == nil, "the full-size decoder was not let go")
    }

    @Test("A photo smaller than the window is never decoded twice")
    func smallPhotoDecodedOnce() throws {
        let h = QueueHarness()
        let v = MediaView()
        v.setImage(url: try Fixtures.solidImage("red", width: 64, height: 48, ext: "jpg"))
        h.queue.queue(mediaView: v)
        h.pump(seconds: 10) { v.hasPicture }
        #expect(v.hasPicture)
        v.toggleFitNative()
        v.zoom(by: 2)
        _ = Self.contrast(v)
        h.pump(seconds: 0.5)
        #expect(v.session?.detail.tried == false && v.session?.detail.player == nil && v.session?.detail.frame == nil)
    }

    @Test("A photo deleted or overwritten while shown keeps its small picture when zoomed, without a failure",
          arguments: ["deleted", "garbage"])
    func changedPhotoKeepsSmallPicture(change: String) throws {
        let copy = Fixtures.directory + "/vt-checker-\(change)-\(getpid()).jpg"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: try Self.fineChecker(), toPath: copy)
        let h = QueueHarness()
        let v = MediaView()
        v.setImage(url: copy)
        h.queue.queue(mediaView: v)
        h.pump(seconds: 10) { v.hasPicture }
        #expect(v.hasPicture)
        if change == "deleted" {
            try FileManager.default.removeItem(atPath: copy)
        } else {
            try Data((0..<4096).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: copy))
        }
        defer { try? FileManager.default.removeItem(atPath: copy) }
        v.toggleFitNative()
        _ = Self.contrast(v)
        h.pump(seconds: 3) { v.session?.detail.tried == true && v.session?.detail.player == nil }
        #expect(v.session?.detail.tried == true && v.session?.detail.player == nil && v.session?.detail.frame == nil, "the full-size decode did not give up")
        #expect(v.failure == nil, "a failed second decode must not fail the item that is showing")
        #expect(v.hasPicture)
    }
}
