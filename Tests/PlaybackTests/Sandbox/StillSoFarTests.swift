import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// The part of a JPEG that has arrived, decoded as the viewer shows it during a slow
/// download: a baseline file down to where its bytes end and black below, a progressive one
/// whole once its first scan is in, and the worker's picture the same as the viewer's own.
@Suite(.serialized) struct StillSoFarTests {
    let pool = DecodeWorkers(timeout: 5, testing: true)

    /// 320x240, red above and blue below, with grain so the coded data spreads over the file.
    static func photo(progressive: Bool) throws -> [UInt8] {
        let baseline = try Fixtures.make("sofar-photo.jpg", [
            "-f", "lavfi", "-i", "color=c=red:s=320x240", "-vf",
            "drawbox=y=120:w=320:h=120:color=blue:t=fill,noise=alls=24:allf=t", "-frames:v", "1", "-q:v", "2",
        ])
        var path = baseline
        if progressive {
            path = Fixtures.directory + "/sofar-photo-progressive.jpg"
            if !FileManager.default.fileExists(atPath: path) {
                let r = try Run.process("convert", [baseline, "-quality", "95", "-interlace", "JPEG", path], timeout: 60)
                guard r.status == 0 else { throw FixtureError("convert failed: \(r.stderr)") }
            }
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The BGR0 pixel at (x, y) as (r, g, b).
    static func rgb(_ p: StillPixels, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * p.width + x) * 4
        return p.format == .bgr0 ? (Int(p.bytes[i + 2]), Int(p.bytes[i + 1]), Int(p.bytes[i]))
            : (Int(p.bytes[i]), Int(p.bytes[i + 1]), Int(p.bytes[i + 2]))
    }

    @Test func aBaselineFileCutShowsItsTopAndBlackBelow() throws {
        let bytes = try Self.photo(progressive: false)
        let cut = Array(bytes.prefix(bytes.count * 3 / 10))
        let r = try StillWork.decodeSoFar(cut, name: "cut.jpg", target: nil, maxPixels: 1 << 26, displayProfile: nil)
        let rows = try #require(r.rowsPresent)
        #expect(rows > 240 / 10 && rows < 240 / 2, "rows present: \(rows)")
        let p = r.pixels
        let top = Self.rgb(p, 160, 4)
        #expect(top.r > 150 && top.b < 100, "the top is the photo's red: \(top)")
        for y in [rows, 239] {
            let below = Self.rgb(p, 160, y)
            #expect(below.r == 0 && below.g == 0 && below.b == 0, "row \(y), not yet arrived, is the background: \(below)")
        }
    }

    @Test func aProgressiveFilePastItsFirstScanIsWhole() throws {
        let bytes = try Self.photo(progressive: true)
        let cut = Array(bytes.prefix(bytes.count / 3))
        let r = try StillWork.decodeSoFar(cut, name: "cut.jpg", target: nil, maxPixels: 1 << 26, displayProfile: nil)
        #expect(r.rowsPresent == 240)
        let bottom = Self.rgb(r.pixels, 160, 230)
        #expect(bottom.b > 150 && bottom.r < 100, "the bottom is the photo's blue already: \(bottom)")
    }

    @Test func theWorkerShowsThePartAsTheViewerWould() throws {
        defer { pool.stopAll() }
        let bytes = try Self.photo(progressive: false)
        let cut = Array(bytes.prefix(bytes.count / 2))
        var o = PlayerOptions()
        o.targetSize = (160, 120)
        guard case .picture(let p) = try pool.still(cut, name: "cut.jpg", options: o, soFar: true) else {
            Issue.record("no worker answered")
            return
        }
        let here = try StillWork.decodeSoFar(cut, name: "cut.jpg", target: (160, 120), maxPixels: o.source.maxPixels,
                                             displayProfile: nil)
        #expect(p.pixels == here.pixels)
        #expect(p.rowsPresent == here.rowsPresent && p.rowsPresent < 120)
        // The whole file is still refused when cut: only a download in progress shows a part.
        #expect(throws: AVError.self) { try pool.decodePixels(cut, name: "cut.jpg", options: o) }
    }

    @Test func nothingButAJPEGIsShownInPart() throws {
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try JPEGStillTests.quadrantPNG(width: 64, height: 48))))
        #expect(throws: AVError.self) {
            try StillWork.decodeSoFar(Array(png.prefix(png.count / 2)), name: "cut.png", target: nil, maxPixels: 1 << 26,
                                      displayProfile: nil)
        }
    }
}
