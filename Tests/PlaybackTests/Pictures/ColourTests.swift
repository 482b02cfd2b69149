import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// Solid colours come out as that colour, whatever the pixel format, bit depth or size.
@Suite(.serialized) struct ColourTests {
    /// The name ffmpeg's colour source knows, and what it should look like.
    static let colours: [(String, (r: Double, g: Double, b: Double))] = [
        ("red", Colour.red), ("lime", Colour.green), ("blue", Colour.blue),
    ]

    /// Opens `path`, takes its first picture and checks its mean colour.
    func check(_ path: String, _ expected: (r: Double, g: Double, b: Double), width: Int, height: Int,
               format: String? = nil) throws {
        let d = PlayerDriver(path) { $0.untimed = true }
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.width == width && info.height == height, "\(path): \(info.width)x\(info.height)")
        let f = try #require(d.firstFrame(), "\(path) showed nothing")
        if let format { #expect(f.pixelFormatName == format, "\(path) decoded as \(f.pixelFormatName)") }
        let c = f.averageColor()
        #expect(Colour.near(c, expected), "\(path): \(Colour.text(c))")
        // Every pixel, not just the mean: a shifted plane or a wrong stride leaves a band.
        let corner = corners(f)
        for (i, p) in corner.enumerated() {
            #expect(Colour.near(p, expected, tolerance: 30), "\(path) corner \(i): \(Colour.text(p))")
        }
    }

    /// The colours at the four corners after conversion to the frame's own size.
    func corners(_ f: VideoFrame) -> [(r: Double, g: Double, b: Double)] {
        let w = f.width, h = f.height
        var px = [UInt32](repeating: 0, count: w * h)
        px.withUnsafeMutableBytes { raw in
            let t = ImageTarget(base: raw.baseAddress!, width: w, height: h, stride: w * 4)
            Scaler().render(f, into: t, rect: PixelRect(x: 0, y: 0, width: w, height: h), quality: .best, rotation: 0)
        }
        return [(1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2)].map { (x, y) in
            let p = px[y * w + x]
            return (Double((p >> 16) & 0xFF), Double((p >> 8) & 0xFF), Double(p & 0xFF))
        }
    }

    @Test("Solid PNG (rgb24) and JPEG stills", arguments: ["png", "jpg"])
    func stills(ext: String) throws {
        for (name, rgb) in Self.colours {
            try check(try Fixtures.solidImage(name, width: 120, height: 90, ext: ext), rgb, width: 120, height: 90)
        }
    }

    @Test("H.264 video in 8-bit 4:2:0, 4:2:2, 4:4:4 and 10-bit 4:2:0",
          arguments: ["yuv420p", "yuv422p", "yuv444p", "yuv420p10le"])
    func h264(pixelFormat: String) throws {
        for (name, rgb) in Self.colours {
            let path = try Fixtures.solidVideo(name, width: 160, height: 120, seconds: 0.2, pixelFormat: pixelFormat)
            try check(path, rgb, width: 160, height: 120, format: pixelFormat)
        }
    }

    @Test("Odd sizes: 321x241 PNG, H.264 4:4:4 and FFV1 4:2:0")
    func oddSizes() throws {
        for (name, rgb) in Self.colours {
            // lavfi's colour source rounds its size to even numbers; scale makes it odd.
            let src = ["-f", "lavfi", "-i", "color=c=\(name):s=320x240:r=25:d=0.2,scale=321:241"]
            // A local still is decoded by the sandboxed worker, which hands the picture over
            // as RGBA whatever the file stores.
            try check(try Fixtures.make("pt-odd-\(name).png", src + ["-frames:v", "1", "-pix_fmt", "rgb24"]),
                      rgb, width: 321, height: 241, format: "rgba")
            try check(try Fixtures.make("pt-odd-\(name)-444.mp4",
                                        src + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv444p"]),
                      rgb, width: 321, height: 241, format: "yuv444p")
            try check(try Fixtures.make("pt-odd-\(name)-420.mkv", src + ["-c:v", "ffv1", "-pix_fmt", "yuv420p"]),
                      rgb, width: 321, height: 241, format: "yuv420p")
        }
    }

    @Test("Every frame of a video keeps its colour, not only the first")
    func wholeVideo() throws {
        let path = try Fixtures.solidVideo("blue", width: 160, height: 120, seconds: 1, pixelFormat: "yuv420p10le")
        let d = PlayerDriver(path) { $0.untimed = true }
        defer { d.player.close() }
        _ = try d.ready()
        let run = d.play(limit: 10, colors: true)
        #expect(run.finished && run.frames.count >= 24)
        for f in run.frames {
            #expect(Colour.near(f.color!, Colour.blue), "pts \(f.pts): \(Colour.text(f.color))")
        }
    }
}
