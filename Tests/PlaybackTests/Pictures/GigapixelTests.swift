import CFFmpeg
import Foundation
import Testing
import MediaCore
import TestSupport
@testable import Playback

/// A JPEG over the pixel budget is shown reduced to fit it, and its detail decoded a
/// region at a time; bombs that claim gigapixels still fail cleanly. Every picture here is
/// compared with FFmpeg's own decoder reading the same file.
@Suite(.serialized) struct GigapixelTests {
    init() { FFmpegLog.quiet }

    /// The BGRX bytes of a decoded BGR0 frame, rows packed.
    static func bytes(_ frame: Frame) -> [UInt8] {
        let f = frame.raw.pointee
        let w = Int(f.width), h = Int(f.height), stride = Int(f.linesize.0)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h { for i in 0..<(w * 4) { out[y * w * 4 + i] = f.data.0![y * stride + i] } }
        return out
    }

    /// The largest difference of one channel's mean over `block`-pixel squares, and the mean
    /// absolute difference per channel over every pixel, of two BGRX pictures `width` wide.
    static func compare(_ a: [UInt8], _ b: [UInt8], width: Int, block: Int) -> (blocks: Double, pixels: Double) {
        let height = a.count / 4 / width
        var worst = 0.0, total = 0.0
        for by in stride(from: 0, to: height - block + 1, by: block) {
            for bx in stride(from: 0, to: width - block + 1, by: block) {
                for c in 0..<3 {
                    var sa = 0.0, sb = 0.0
                    for y in by..<(by + block) {
                        for x in bx..<(bx + block) {
                            let i = (y * width + x) * 4 + c
                            sa += Double(a[i]); sb += Double(b[i])
                            total += abs(Double(a[i]) - Double(b[i]))
                        }
                    }
                    worst = max(worst, abs(sa - sb) / Double(block * block))
                }
            }
        }
        return (worst, total / Double(width * height * 3))
    }

    /// A budget of 5 MP: a half (50 MP) and a quarter (12.5 MP) are over it, an eighth fits.
    @Test("A 20000x10000 JPEG over the budget decodes reduced just enough to fit, as FFmpeg sees it")
    func overBudgetDecodesReduced() throws {
        let path = try Fixtures.gigapixelJPEG()
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let frame = try data.withUnsafeBytes { raw in try JPEGStill(lowres: 0, maxPixels: 5_000_000).decode(raw) }
        #expect(frame.raw.pointee.width == 2500 && frame.raw.pointee.height == 1250)
        let reference = try Fixtures.ffmpegBGRA(path, lowres: 3, filter: "null", width: 2500, height: 1250)
        let d = Self.compare(Self.bytes(frame), reference, width: 2500, block: 50)
        // Means over blocks differ most at the card's sharp colour edges (each decoder
        // upsamples chroma its own way); the grain, pixel by pixel, is the same.
        #expect(d.blocks < 12 && d.pixels < 4, "the reduced picture differs from FFmpeg's: \(d)")
    }

    @Test("Below an eighth within the budget, the picture is refused from its header", arguments: [1_000_000])
    func farOverBudgetRefused(maxPixels: Int) throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixtures.gigapixelJPEG())))
        #expect {
            try data.withUnsafeBytes { raw in try JPEGStill(lowres: 0, maxPixels: maxPixels).decode(raw) }
        } throws: { e in
            let e = e as! AVError
            return e.code == JPEGStill.overBudgetCode && e.message.contains("20000x10000")
        }
    }

    @Test("Tiles decoded alone match the same regions of FFmpeg's decode",
          arguments: [(0, 9...10, 18...19), (1, 4...4, 9...9), (0, 19...19, 38...39)])
    func tilesMatchFile(level: Int, rows: ClosedRange<Int>, columns: ClosedRange<Int>) throws {
        let path = try Fixtures.gigapixelJPEG()
        let regions = try JPEGRegions(path: path)
        #expect(regions.width == 20000 && regions.height == 10000)
        let grid = try regions.tiles(level: level, rows: rows, columns: columns, side: 512, displayProfile: nil)
        #expect(grid.count == rows.count && grid.allSatisfy { $0.count == columns.count })
        let (lw, lh) = regions.size(level: level)
        for (i, row) in grid.enumerated() {
            for (j, tile) in row.enumerated() {
                let x = (columns.lowerBound + j) * 512, y = (rows.lowerBound + i) * 512
                let w = min(512, lw - x), h = min(512, lh - y)
                #expect(tile.width == w && tile.height == h)
                let reference = try Fixtures.ffmpegBGRA(path, lowres: level, filter: "crop=\(w):\(h):\(x):\(y)",
                                                        width: w, height: h)
                let d = Self.compare(Self.bytes(tile.frame), reference, width: w, block: 16)
                // Off by one block, the grain alone would make the pixels differ by 5 or more.
                #expect(d.blocks < 12 && d.pixels < 3, "tile \(x),\(y) at level \(level) differs: \(d)")
            }
        }
    }

    @Test("Tiles of a photo with a wide-gamut profile come in its sRGB colours, as lcms2 computes them")
    func tilesAreColourManaged() throws {
        let plain = try Fixtures.make("jpeg-solid-1024-0x3366cc.jpg", ["-f", "lavfi", "-i", "color=c=0x3366cc:s=1024x1024",
                                                                       "-frames:v", "1", "-q:v", "2"])
        let icc = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try ColourProfiles.wideGamut())))
        let tagged = try Fixtures.bytes("jpeg-solid-1024-wide-gamut.jpg",
                                        ColourProfiles.jpeg(try Data(contentsOf: URL(fileURLWithPath: plain)), withICC: icc))
        let tile = try #require(try JPEGRegions(path: tagged).tiles(level: 0, rows: 1...1, columns: 1...1, side: 512,
                                                                    displayProfile: nil).first?.first)
        // What the file holds, read as sRGB: the tile must differ from it by the conversion.
        let raw = try #require(try JPEGRegions(path: plain).tiles(level: 0, rows: 1...1, columns: 1...1, side: 512,
                                                                  displayProfile: nil).first?.first)
        let stored = raw.averageColor()
        let want = try ColourProfiles.sRGB(of: UInt32(stored.r.rounded()) << 16 | UInt32(stored.g.rounded()) << 8
                                               | UInt32(stored.b.rounded()), inProfile: try ColourProfiles.wideGamut())
        let got = tile.averageColor()
        let expected = (Double(want >> 16 & 0xFF), Double(want >> 8 & 0xFF), Double(want & 0xFF))
        #expect(abs(got.r - expected.0) < 4 && abs(got.g - expected.1) < 4 && abs(got.b - expected.2) < 4,
                "tile \(got), lcms2 \(expected), unconverted \(stored)")
        #expect(abs(got.r - stored.r) + abs(got.g - stored.g) + abs(got.b - stored.b) > 12, "not converted: \(got)")
    }

    /// libjpeg fills what the data does not hold with grey; at an eighth, 7500x7500 fits the
    /// 100 MP budget, so the bomb may show, but never larger than the budget allows.
    @Test("A baseline bomb claiming 60000x60000 in a few hundred bytes fails or shows within the budget")
    func baselineBombStaysWithinBudget() throws {
        let path = try Fixtures.jpegBomb(width: 60000, height: 60000, progressive: false)
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(data.count < 10_000)
        let budget = 100_000_000
        let shown = try? data.withUnsafeBytes { raw in try JPEGStill(lowres: 0, maxPixels: budget).decode(raw) }
        if let f = shown?.raw.pointee {
            #expect(Int(f.width) * Int(f.height) <= budget && f.width == 7500 && f.height == 7500)
        }
        let tiles = try? JPEGRegions(path: path).tiles(level: 0, rows: 50...50, columns: 50...51, side: 512, displayProfile: nil)
        #expect(tiles == nil || tiles?.joined().allSatisfy { $0.width == 512 && $0.height == 512 } == true)
    }

    @Test("A progressive 20000x10000 bomb, which libjpeg would buffer whole, is refused within the budget")
    func progressiveBombRefused() throws {
        let path = try Fixtures.jpegBomb(width: 20000, height: 10000, progressive: true)
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect {
            try data.withUnsafeBytes { raw in try JPEGStill(lowres: 0, maxPixels: 100_000_000).decode(raw) }
        } throws: { e in
            let e = e as! AVError
            return e.code == JPEGStill.overBudgetCode && e.message.contains("over the limit")
        }
    }
}
