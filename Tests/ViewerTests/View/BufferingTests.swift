import Foundation
import Playback
import Testing
import TestSupport
@testable import Viewer
@testable import Windowing

/// A download slower than the video: the picture waits and the buffering spinner turns,
/// and it goes away when the picture moves again.
@Suite(.serialized)
@MainActor
struct BufferingTests {
    /// Near-white pixels in the middle of what the view draws.
    func spinnerPixels(_ v: MediaView) -> Int {
        let w = 320, h = 240
        var pixels = [UInt32](repeating: 0, count: w * h)
        return pixels.withUnsafeMutableBytes { raw in
            let buf = PixelBuffer(base: raw.baseAddress!, width: w, height: h, stride: w * 4)
            v.render(into: buf, state: MediaSession.RenderState(now: 0.3, showControls: false))
            var n = 0
            for y in 90..<150 { for x in 130..<190 where buf.pixel(x: x, y: y) & 0xFFFFFF > 0xC0C0C0 { n += 1 } }
            return n
        }
    }

    @Test("A trickling download shows the spinner over the waiting picture")
    func spinnerWhileStarved() throws {
        let root = try TestEnvironment.httpRoot
        // Dark noise: a high bitrate that a trickle cannot keep up with, and no white of its own.
        let clip = try Fixtures.make("dark-noise.mp4", ["-f", "lavfi", "-i", "color=c=0x101010:s=320x240:r=25:d=6",
                                                        "-vf", "noise=alls=12:allf=t", "-c:v", "libx264", "-preset",
                                                        "ultrafast", "-movflags", "+faststart"])
        _ = try? FileManager.default.removeItem(atPath: root + "/dark-noise.mp4")
        try FileManager.default.copyItem(atPath: clip, toPath: root + "/dark-noise.mp4")
        let h = QueueHarness()
        let v = MediaView()
        v.playerOptions.audio = false
        v.shouldCacheStreamedMedia = false
        v.setVideo(url: try TestEnvironment.http + "/trickle/40000/dark-noise.mp4")
        h.queue.queue(mediaView: v)
        h.pump(seconds: 15) { v.hasPicture }
        #expect(v.hasPicture, "the first picture arrived")
        #expect(spinnerPixels(v) == 0, "no spinner while frames come")
        // A trickle still brings a frame now and then, and with it the picture moves and
        // the spinner goes: the player's word and the drawing are taken together, as the
        // window takes them, until both say it starves.
        var spinning = false
        h.pump(seconds: 10) {
            spinning = v.session?.player?.isStarving == true && spinnerPixels(v) > 20
            return spinning
        }
        #expect(spinning, "the spinner turns over the picture while the download is behind it")
    }
}
