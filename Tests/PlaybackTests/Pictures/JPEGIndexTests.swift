import Foundation
import Testing
import MediaCore
import TestSupport
@testable import Playback

/// A zoomed JPEG's tiles decoded from rows cut out with the entropy index are the very
/// pixels libjpeg gives when it skips the rows above, for files as real encoders write them;
/// files the index cannot cover, or damaged ones, decode as they did without it.
@Suite(.serialized) struct JPEGIndexTests {
    init() { FFmpegLog.quiet }

    /// 1003x757 (not a whole number of MCUs either way) of test card with grain, so that no
    /// two blocks code alike and a row off by one shows.
    static func source() throws -> String {
        try Fixtures.make("jpeg-index-source.png", ["-f", "lavfi", "-i", "testsrc2=s=1004x758", "-vf",
                                                    "noise=alls=30:allf=u,scale=1003:757", "-pix_fmt", "rgb24", "-frames:v", "1"])
    }

    /// The source as a PPM, which libjpeg-turbo's cjpeg reads.
    static func sourcePPM() throws -> String {
        let png = try source()
        return try Fixtures.tool("jpeg-index-source.ppm", "convert") { [png, $0] }
    }

    /// The source through ImageMagick with `options`.
    static func magick(_ name: String, _ options: [String]) throws -> String {
        let png = try source()
        return try Fixtures.tool("jpeg-index-\(name).jpg", "convert") { [png] + options + [$0] }
    }

    /// The source through libjpeg-turbo's cjpeg with `options`.
    static func cjpeg(_ name: String, _ options: [String]) throws -> String {
        let ppm = try sourcePPM()
        return try Fixtures.tool("jpeg-index-\(name).jpg", "cjpeg") { options + ["-outfile", $0, ppm] }
    }

    /// The source through FFmpeg's MJPEG encoder with `options`.
    static func ffmpeg(_ name: String, _ options: [String]) throws -> String {
        try Fixtures.make("jpeg-index-\(name).jpg", ["-i", try source()] + options + ["-frames:v", "1"])
    }

    /// The ImageMagick default, tagged as a camera tags its photos (make, model, date, exposure).
    static func camera() throws -> String {
        let plain = try magick("default", ["-quality", "85"])
        return try Fixtures.tool("jpeg-index-camera.jpg", "exiftool") {
            ["-q", "-Make=Canon", "-Model=Canon EOS 5D Mark IV", "-DateTimeOriginal=2024:06:01 12:00:00",
             "-ExposureTime=1/250", "-FNumber=8", "-ISO=100", "-o", $0, plain]
        }
    }

    /// Whether the JPEG has a DRI marker before its scan (restart markers in its data).
    static func hasRestarts(_ path: String) throws -> Bool {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF, bytes[i + 1] != 0xDA {
            if bytes[i + 1] == 0xDD { return true }
            i += 2 + Int(bytes[i + 2]) << 8 + Int(bytes[i + 3])
        }
        return false
    }

    /// Pieces at the top, the middle and the bottom right of the picture at each level.
    static func pieces(_ regions: JPEGRegions) -> [(level: Int, x: Int, y: Int, w: Int, h: Int)] {
        (0...3).flatMap { level -> [(level: Int, x: Int, y: Int, w: Int, h: Int)] in
            let (lw, lh) = regions.size(level: level)
            let w = min(200, lw / 2), h = min(128, lh / 4)
            return [(level, 0, 0, w, h), (level, (lw - w) / 2, (lh - h) / 2, w, h), (level, lw - w, lh - h, w, h)]
        }
    }

    /// Compares every piece cut out with the index with the same piece after skipped rows;
    /// how many were cut out (the rest had nothing above to skip, or could not be cut), and
    /// how many of those were narrower than the picture (cut by columns too).
    static func compareEveryPiece(_ path: String) throws -> (cut: Int, narrow: Int) {
        let regions = try JPEGRegions(path: path)
        var cut = 0, narrow = 0
        for p in pieces(regions) {
            let skipped = try regions.skipped(level: p.level, x: p.x, y: p.y, width: p.w, height: p.h)
            guard let spliced = try regions.spliced(level: p.level, x: p.x, y: p.y, width: p.w, height: p.h) else { continue }
            cut += 1
            if let piece = regions.piece(level: p.level, x: p.x, y: p.y, width: p.w, height: p.h),
               try piece.bytes.withUnsafeBytes({ raw in try JPEGStill.storedSize(raw).width }) < regions.width { narrow += 1 }
            let same = GigapixelTests.bytes(spliced) == GigapixelTests.bytes(skipped)
            #expect(same, "\(path): the \(p.w)x\(p.h) piece at \(p.x),\(p.y) of level \(p.level) differs")
        }
        return (cut, narrow)
    }

    static let encoders: [(String, @Sendable () throws -> String)] = [
        ("ImageMagick's default (4:2:0)", { try magick("default", ["-quality", "85"]) }),
        ("ImageMagick 4:4:4", { try magick("444", ["-sampling-factor", "4:4:4"]) }),
        ("ImageMagick 4:2:2", { try magick("422", ["-sampling-factor", "4:2:2"]) }),
        ("ImageMagick grey", { try magick("grey", ["-colorspace", "Gray"]) }),
        ("ImageMagick optimised tables", { try magick("optimized", ["-define", "jpeg:optimize-coding=true"]) }),
        ("ImageMagick standard tables", { try magick("standard", ["-define", "jpeg:optimize-coding=false"]) }),
        ("FFmpeg's MJPEG", { try ffmpeg("mjpeg", ["-q:v", "3", "-pix_fmt", "yuvj420p"]) }),
        ("a camera's EXIF", camera),
        ("cjpeg optimised 4:2:0", { try cjpeg("optimized", ["-optimize", "-quality", "90"]) }),
    ]

    @Test("Pieces cut out with the index are the pixels of skipped rows, for files real encoders write",
          arguments: 0..<encoders.count)
    func encodersAgree(encoder: Int) throws {
        let (name, make) = Self.encoders[encoder]
        let path = try make()
        #expect(try JPEGRegions(path: path).indexed, "\(name): no index")
        // At every level the middle and the bottom pieces have rows above to skip, and at the
        // finer levels (where a piece is narrower than the picture) columns beside them; so
        // has the top left piece, whose row starts are coded again where it is cut.
        let (cut, narrow) = try Self.compareEveryPiece(path)
        #expect(cut >= 8, "\(name): too few pieces cut out")
        #expect(narrow >= 6, "\(name): \(narrow) pieces cut by columns")
    }

    /// A piece may begin on any column of MCUs, and its cut is rounded out to the index's
    /// marks: pieces at every such column show the chroma around a cut's edges is the file's.
    @Test("Pieces starting at every column of MCUs, cut by columns, are the pixels of skipped rows",
          arguments: [0, 2, 5])
    func everyColumn(encoder: Int) throws {
        let path = try Self.encoders[encoder].1()
        let regions = try JPEGRegions(path: path)
        for level in [0, 1, 3] {
            let (lw, lh) = regions.size(level: level)
            let across = max(1, 16 >> level), w = min(48, lw / 4), h = min(32, lh / 4), y = lh / 2
            for x in stride(from: 0, through: lw - w, by: across) {
                let skipped = try regions.skipped(level: level, x: x, y: y, width: w, height: h)
                let spliced = try #require(try regions.spliced(level: level, x: x, y: y, width: w, height: h))
                let same = GigapixelTests.bytes(spliced) == GigapixelTests.bytes(skipped)
                #expect(same, "\(path): the piece at \(x),\(y) of level \(level) differs")
            }
        }
    }

    @Test("Files with restart markers are cut at a restart boundary, at the rows asked for or above them")
    func restartMarkers() throws {
        let files = [
            // One restart interval a row of MCUs, as FFmpeg writes them with slices.
            try Self.ffmpeg("mjpeg-slices", ["-q:v", "3", "-pix_fmt", "yuvj420p", "-threads", "2", "-slices", "4"]),
            // Every 5 MCUs, with 63 to a row: a boundary begins only every fifth row.
            try Self.cjpeg("restart-5", ["-restart", "5B", "-quality", "85"]),
            try Self.cjpeg("restart-row", ["-restart", "1", "-sample", "2x1"]),
        ]
        for path in files {
            #expect(try Self.hasRestarts(path), "\(path) has no restart markers")
            #expect(try JPEGRegions(path: path).indexed, "\(path): no index")
            #expect(try Self.compareEveryPiece(path).cut >= 8)
        }
    }

    @Test("A progressive JPEG has no index, and its pieces decode as before")
    func progressiveFallsBack() throws {
        let path = try Self.magick("progressive", ["-interlace", "JPEG"])
        let regions = try JPEGRegions(path: path)
        #expect(!regions.indexed)
        #expect(try Self.compareEveryPiece(path).cut == 0)
        let tiles = try regions.tiles(level: 0, rows: 1...1, columns: 1...1, side: 512, displayProfile: nil)
        #expect(tiles.first?.first?.width == 491 && tiles.first?.first?.height == 245, "\(String(describing: tiles.first?.first))")
    }

    /// A smooth gradient from mid grey to white, saved with optimised tables at quality 100:
    /// every DC difference is small, so the DC table holds no code for the DC values of most
    /// rows, which a piece starting there would need; such a piece starts with a priming row
    /// of flat blocks that brings the predictors there, decoded and thrown away.
    @Test("Optimised tables without the DC codes a row needs: the piece is primed, and the same pixels")
    func optimisedTablesWithoutTheCodes() throws {
        let gradient = try Fixtures.tool("jpeg-index-gradient.ppm", "convert") { ["-size", "1003x757", "gradient:gray50-white", $0] }
        let path = try Fixtures.tool("jpeg-index-gradient.jpg", "cjpeg") { ["-optimize", "-quality", "100", "-outfile", $0, gradient] }
        let regions = try JPEGRegions(path: path)
        #expect(regions.indexed)
        #expect(try Self.compareEveryPiece(path).cut >= 8)
        // The bottom rows' DC values (white) are far from any difference the file codes.
        let bottom = regions.size(level: 0).height - 64
        let piece = try #require(try regions.spliced(level: 0, x: 0, y: bottom, width: 256, height: 64))
        let skipped = try regions.skipped(level: 0, x: 0, y: bottom, width: 256, height: 64)
        let same = GigapixelTests.bytes(piece) == GigapixelTests.bytes(skipped)
        #expect(same)
    }

    /// `source` with `edit` applied to its bytes, as `name`.
    static func damaged(_ name: String, _ edit: (inout [UInt8], Int) -> Void) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try magick("default", ["-quality", "85"]))))
        let sos = (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }!
        edit(&bytes, sos)
        return try Fixtures.bytes("jpeg-index-\(name).jpg", Data(bytes))
    }

    @Test("Damaged files: no index, or tiles that are the skipped rows' pixels; a failure is one sentence")
    func damagedFiles() throws {
        let cut = try Self.damaged("cut") { bytes, _ in bytes.removeLast(bytes.count / 2) }
        let flipped = try Self.damaged("flipped") { bytes, sos in
            for i in stride(from: sos + 400, to: bytes.count - 2, by: 997) where bytes[i] != 0xFF && bytes[i + 1] != 0xFF { bytes[i] ^= 0x5A }
        }
        let badTable = try Self.damaged("bad-dht") { bytes, _ in
            // Three codes of one bit in the first Huffman table: not a prefix code.
            let dht = (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC4 }!
            bytes[dht + 5] = 3
        }
        // 60000 rows claimed: the data ends long before.
        let tall = try Self.damaged("tall") { bytes, _ in
            let sof = (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
            bytes[sof + 5] = 0xEA
            bytes[sof + 6] = 0x60
        }
        for path in [cut, flipped, badTable, tall] {
            let regions: JPEGRegions
            do { regions = try JPEGRegions(path: path) } catch {
                #expect(!error.message.isEmpty && !error.message.contains("\n"))
                continue
            }
            #expect(!regions.indexed || path == flipped, "\(path) has an index")
            for p in Self.pieces(regions) {
                let skipped = Result { () throws(AVError) in try regions.skipped(level: p.level, x: p.x, y: p.y, width: p.w, height: p.h) }
                let shown = Result { () throws(AVError) in
                    try regions.band(level: p.level, x: p.x, y: p.y, width: p.w, height: p.h, displayProfile: nil)
                }
                switch (skipped, shown) {
                case (.success, .success): break
                case (.failure(let a), .failure(let b)):
                    #expect(a.message == b.message && !b.message.contains("\n") && b.message.count > "libjpeg: ".count)
                default: Issue.record("\(path): the piece at \(p) fails one way and not the other")
                }
            }
        }
    }

    /// A 512x512 grey baseline JPEG whose every block codes the largest DC difference there
    /// is, +2047, and nothing else: its DC values climb past any a picture holds (8 million
    /// at the last block), as a crafted file's can climb past what an int holds.
    static func runawayDC() -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0, 67, 0] + [UInt8](repeating: 1, count: 64)
        bytes += [0xFF, 0xC0, 0, 11, 8, 2, 0, 2, 0, 1, 1, 0x11, 0]
        // One code of one bit in each table: DC category 11, AC end-of-block.
        bytes += [0xFF, 0xC4, 0, 20, 0x00, 1] + [UInt8](repeating: 0, count: 15) + [11]
        bytes += [0xFF, 0xC4, 0, 20, 0x10, 1] + [UInt8](repeating: 0, count: 15) + [0]
        bytes += [0xFF, 0xDA, 0, 8, 1, 1, 0x00, 0, 63, 0]
        var bits: [Bool] = []
        for _ in 0..<(64 * 64) { bits += [false] + [Bool](repeating: true, count: 11) + [false] }
        bits += [Bool](repeating: true, count: (8 - bits.count % 8) % 8)
        for i in stride(from: 0, to: bits.count, by: 8) {
            let byte = bits[i..<(i + 8)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
            bytes += byte == 0xFF ? [0xFF, 0] : [byte]
        }
        return bytes + [0xFF, 0xD9]
    }

    @Test("A scan whose DC values run past any picture's has no index; its pieces decode as libjpeg decides, or fail in one line")
    func runawayDCValues() throws {
        let path = try Fixtures.bytes("jpeg-index-runaway-dc.jpg", Data(Self.runawayDC()))
        let regions = try JPEGRegions(path: path)
        #expect(regions.width == 512 && regions.height == 512)
        #expect(!regions.indexed)
        for p in Self.pieces(regions) {
            do {
                let band = try regions.band(level: p.level, x: p.x, y: p.y, width: p.w, height: p.h, displayProfile: nil)
                #expect(band.raw.pointee.width == Int32(p.w) && band.raw.pointee.height == Int32(p.h))
            } catch {
                #expect(!error.message.isEmpty && !error.message.contains("\n"))
            }
        }
    }

    @Test("The index finds where the rows of a 200 MP panorama start, and a tile at its bottom is cut from them")
    func panorama() throws {
        let regions = try JPEGRegions(path: try Fixtures.gigapixelJPEG())
        #expect(regions.indexed)
        let piece = try #require(try regions.spliced(level: 0, x: 19000, y: 9488, width: 512, height: 512))
        let skipped = try regions.skipped(level: 0, x: 19000, y: 9488, width: 512, height: 512)
        // A Bool, so that a failure does not describe (and diff) two megabytes.
        let same = GigapixelTests.bytes(piece) == GigapixelTests.bytes(skipped)
        #expect(same, "the bottom-right tile of the panorama differs")
    }
}
