import Foundation
import Testing
import MediaCore
import TestSupport
@testable import Playback

/// A progressive JPEG over the pixel budget is shown from its DC scans alone, written again
/// as a baseline file, for the scan layouts real encoders write. Where every component has
/// its full resolution it is the very picture libjpeg decodes at an eighth; with chroma at
/// half resolution libjpeg's eighth also reads the chroma's first AC terms, so the two agree
/// once halved, as a fitted view of a huge picture shows them.
@Suite(.serialized) struct ProgressiveDCTests {
    init() { FFmpegLog.quiet }

    /// jpegtran's scan script with each component's DC in a scan of its own, first its high
    /// bits and later the last one: the blocks of a lone component come in its own grid, not
    /// the MCUs'.
    static func separateScans() throws -> String {
        let script = Fixtures.directory + "/progressive-dc-separate.scans"
        try """
        0: 0 0 0 1; 1: 0 0 0 1; 2: 0 0 0 1;
        0: 1 63 0 0; 1: 1 63 0 0; 2: 1 63 0 0;
        0: 0 0 1 0; 1: 0 0 1 0; 2: 0 0 1 0;
        """.write(toFile: script, atomically: true, encoding: .utf8)
        return script
    }

    /// Each file, and whether its chroma has every pixel (4:4:4, grey).
    static let files: [(String, Bool, @Sendable () throws -> String)] = [
        ("ImageMagick progressive", true, { try JPEGIndexTests.magick("progressive", ["-interlace", "JPEG"]) }),
        ("jpegtran -progressive of 4:4:4", true, {
            try progressive("444", from: JPEGIndexTests.magick("444", ["-sampling-factor", "4:4:4"]))
        }),
        ("jpegtran -progressive of grey", true, {
            try progressive("grey", from: JPEGIndexTests.magick("grey", ["-colorspace", "Gray"]))
        }),
        ("jpegtran -progressive of 4:2:2", false, {
            try progressive("422", from: JPEGIndexTests.magick("422", ["-sampling-factor", "4:2:2"]))
        }),
        ("jpegtran -progressive of 4:2:0", false, {
            try progressive("420", from: JPEGIndexTests.magick("default", ["-quality", "85"]))
        }),
        ("cjpeg -progressive with restart markers", false, {
            try JPEGIndexTests.cjpeg("progressive-restart", ["-progressive", "-restart", "5B", "-quality", "85"])
        }),
        ("jpegtran, each component's DC in its own scans", false, {
            let script = try separateScans()
            let source = try JPEGIndexTests.magick("default", ["-quality", "85"])
            return try Fixtures.tool("progressive-dc-separate.jpg", "jpegtran") { ["-scans", script, "-outfile", $0, source] }
        }),
    ]

    /// The mean and largest difference of one channel between `a` and `b` (the same size)
    /// once each is halved by averaging 2x2 pixels.
    static func halvedDifference(_ a: Frame, _ b: Frame) -> (mean: Double, largest: Double) {
        let (pa, pb) = (GigapixelTests.bytes(a), GigapixelTests.bytes(b))
        let w = Int(a.raw.pointee.width), h = Int(a.raw.pointee.height)
        var total = 0.0, largest = 0.0, count = 0
        for y in 0..<(h / 2) {
            for x in 0..<(w / 2) {
                for ch in 0..<3 {
                    func mean(_ p: [UInt8]) -> Double {
                        [(0, 0), (0, 1), (1, 0), (1, 1)].reduce(0.0) { $0 + Double(p[((2 * y + $1.0) * w + 2 * x + $1.1) * 4 + ch]) } / 4
                    }
                    let d = abs(mean(pa) - mean(pb))
                    total += d
                    largest = max(largest, d)
                    count += 1
                }
            }
        }
        return (total / Double(max(1, count)), largest)
    }

    /// `source` made progressive by jpegtran's default script (DC in two steps, all components).
    static func progressive(_ name: String, from source: String) throws -> String {
        try Fixtures.tool("progressive-dc-\(name).jpg", "jpegtran") { ["-progressive", "-outfile", $0, source] }
    }

    @Test("Over the budget, a progressive JPEG shows at an eighth as libjpeg decodes it, from its DC scans alone",
          arguments: 0..<files.count)
    func sameAsLibjpeg(file: Int) throws {
        let (name, fullChroma, make) = Self.files[file]
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try make())))
        // The file really is progressive (SOF2), or this would test baseline again.
        #expect(bytes.indices.dropLast().contains { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 }, "\(name)")
        let eighth = try bytes.withUnsafeBytes { raw in try JPEGStill(lowres: 3, maxPixels: 100_000_000).decode(raw) }
        // A budget one pixel short of the stored size: libjpeg would hold every coefficient.
        let over = try bytes.withUnsafeBytes { raw in try JPEGStill(lowres: 0, maxPixels: 1003 * 757 - 1).decode(raw) }
        #expect(bytes.withUnsafeBytes { JPEGStill.progressiveDC($0) } != nil, "\(name): its DC scans were not read")
        #expect(over.raw.pointee.width == 126 && over.raw.pointee.height == 95, "\(name)")
        if fullChroma {
            let same = GigapixelTests.bytes(over) == GigapixelTests.bytes(eighth)
            #expect(same, "\(name): the DC scans' picture differs from libjpeg's eighth")
        } else {
            // The test card's grain puts the most colour in the chroma's AC terms there is.
            let d = Self.halvedDifference(over, eighth)
            #expect(d.mean < 1.5 && d.largest < 32, "\(name): halved, \(d.mean) apart on average, \(d.largest) at most")
        }
    }

    @Test("A baseline JPEG, or a progressive one cut inside its DC scans, gives no DC picture and fails as before")
    func notProgressiveOrCut() throws {
        let baseline = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try JPEGIndexTests.magick("default", ["-quality", "85"]))))
        #expect(baseline.withUnsafeBytes { JPEGStill.progressiveDC($0) } == nil)
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.files[4].2())))
        let sos = try #require(whole.indices.dropLast().first { whole[$0] == 0xFF && whole[$0 + 1] == 0xDA })
        let cut = Array(whole.prefix(sos + 200))
        #expect(cut.withUnsafeBytes { JPEGStill.progressiveDC($0) } == nil)
        #expect {
            try cut.withUnsafeBytes { raw in try JPEGStill(lowres: 0, maxPixels: 1003 * 757 - 1).decode(raw) }
        } throws: { e in
            let e = e as! AVError
            return JPEGStill.isFinal(e.code) && !e.message.contains("\n")
        }
    }
}
