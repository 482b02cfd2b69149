import Foundation
import Testing
import TestSupport
@testable import Playback

/// Video shows the colours it was made with whatever its tags say: limited or full range,
/// BT.601 or BT.709 matrix, and HDR (PQ) brought down to SDR rather than washed out.
@Suite(.serialized) struct ColourRangeTests {
    /// The first picture of `path` scaled to its own size, as the window gets it.
    func picture(_ path: String) throws -> (pixels: [UInt32], width: Int, height: Int) {
        let d = PlayerDriver(path) { $0.untimed = true }
        defer { d.player.close() }
        _ = try d.ready()
        let f = try #require(d.firstFrame(), "\(path) showed nothing")
        let w = f.width, h = f.height
        var px = [UInt32](repeating: 0, count: w * h)
        px.withUnsafeMutableBytes { raw in
            let t = ImageTarget(base: raw.baseAddress!, width: w, height: h, stride: w * 4)
            Scaler().render(f, into: t, rect: PixelRect(x: 0, y: 0, width: w, height: h), quality: .fast, rotation: 0)
        }
        return (px, w, h)
    }

    /// Red, green and blue of the pixel at (`x`, middle row).
    func rgb(_ p: (pixels: [UInt32], width: Int, height: Int), x: Int) -> (r: Int, g: Int, b: Int) {
        let v = p.pixels[(p.height / 2) * p.width + x]
        return (Int((v >> 16) & 0xFF), Int((v >> 8) & 0xFF), Int(v & 0xFF))
    }

    /// Three grey patches side by side, coded losslessly with exactly these luma values.
    func greys(_ name: String, _ y: (Int, Int, Int), format: String, range: String, bits: Int = 8,
               tags: [String] = ["-colorspace", "bt709"]) throws -> String {
        let mid = 1 << (bits - 1)
        let lum = "if(lt(X,54),\(y.0),if(lt(X,108),\(y.1),\(y.2)))"
        return try Fixtures.make(name, [
            "-f", "lavfi", "-i", "color=c=black:s=160x120:r=25:d=0.2,format=\(format),geq=lum='\(lum)':cb=\(mid):cr=\(mid)",
            "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", format, "-color_range", range] + tags)
    }

    /// Limited range (16-235): Y=235 is white, Y=126 mid-grey (128), Y=44 dark grey (33).
    @Test func limitedRangeWhiteIsWhite() throws {
        let p = try picture(try greys("range-tv.mp4", (235, 126, 44), format: "yuv444p", range: "tv"))
        for (x, want) in [(27, 255), (80, 128), (134, 33)] {
            let c = rgb(p, x: x)
            #expect(abs(c.r - want) <= 4 && abs(c.g - want) <= 4 && abs(c.b - want) <= 4, "x \(x): \(c), want \(want)")
        }
    }

    /// Full range (0-255): Y=255 white, Y=128 mid-grey, Y=32 dark grey at 32 (read as
    /// limited range it would be 19, and the grey 130). 8-bit H.264 full range decodes as
    /// a yuvj format; 10-bit has none, so only the frame's range tag says it.
    @Test(arguments: [8, 10])
    func fullRangeKeepsItsLevels(bits: Int) throws {
        let k = bits == 8 ? 1 : 4
        let format = bits == 8 ? "yuv444p" : "yuv444p10le"
        let path = try greys("range-pc-\(format).mp4", (255 * k, 128 * k, 32 * k), format: format, range: "pc", bits: bits)
        let p = try picture(path)
        for (x, want) in [(27, 255), (80, 128), (134, 32)] {
            let c = rgb(p, x: x)
            #expect(abs(c.r - want) <= 3 && abs(c.g - want) <= 3 && abs(c.b - want) <= 3, "x \(x): \(c), want \(want)")
        }
    }

    /// BT.709-coded red is red; read with BT.601's matrix its red would be about 233.
    @Test func bt709RedIsRed() throws {
        let path = try Fixtures.make("red-bt709.mp4", [
            "-f", "lavfi", "-i", "color=c=red:s=160x120:r=25:d=0.2,scale=out_color_matrix=bt709:out_range=tv",
            "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv444p",
            "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"])
        let c = rgb(try picture(path), x: 80)
        #expect(c.r >= 247 && c.g <= 8 && c.b <= 8, "\(c)")
    }

    /// HDR10 (PQ, BT.2020) grey patches at HDR's reference white (203 cd/m², code 573 of
    /// 1023) and at 26 cd/m² (code 400). Tone-mapped, the white shows near SDR white (about
    /// 242: just under the roll-off's knee) and the grey as a mid-dark grey (about 101,
    /// 13 % of the white in sRGB). Shown as if it were SDR, the white would be a dull 148.
    @Test func hdrPQIsToneMappedToSDR() throws {
        let path = try greys("pq-greys.mp4", (573, 400, 400), format: "yuv420p10le", range: "tv", bits: 10,
                             tags: ["-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "smpte2084"])
        let p = try picture(path)
        let white = rgb(p, x: 27), grey = rgb(p, x: 134)
        #expect(white.r >= 230 && white.g >= 230 && white.b >= 230, "203 cd/m² white shows as \(white)")
        #expect((88...115).contains(grey.r) && abs(grey.g - grey.r) <= 3 && abs(grey.b - grey.r) <= 3,
                "26 cd/m² grey shows as \(grey)")
    }

    /// HLG at 75 % signal (code 721 of 1023) is HDR's reference white on a 1000 cd/m²
    /// screen: it shows near SDR white (about 242), not as the 0.75 grey (about 190) an SDR
    /// reading gives.
    @Test func hlgIsToneMappedToSDR() throws {
        let path = try greys("hlg-greys.mp4", (721, 721, 721), format: "yuv420p10le", range: "tv", bits: 10,
                             tags: ["-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67"])
        let white = rgb(try picture(path), x: 80)
        #expect(white.r >= 230 && white.g >= 230 && white.b >= 230, "HLG 75 % shows as \(white)")
    }

    /// The tone curve keeps light below the knee, rises all the way, and keeps the peak in range.
    @Test func toneCurveIsMonotonicAndBounded() {
        #expect(ToneMap.rollOff(0.5) == 0.5)
        var last = -1.0
        for i in 0...200 {
            let v = ToneMap.rollOff(Double(i) / 20)
            #expect(v > last && v < 1)
            last = v
        }
        #expect(abs(ToneMap.pqLight(0.5806) - 203) < 2, "PQ 0.5806 is \(ToneMap.pqLight(0.5806)) cd/m²")
        #expect(abs(ToneMap.hlgLight(0.75) - 203) < 5, "HLG 75 % is \(ToneMap.hlgLight(0.75)) cd/m²")
    }
}
