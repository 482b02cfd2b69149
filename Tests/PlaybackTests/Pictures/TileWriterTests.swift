import CFFmpeg
import Foundation
import Glibc
import MediaCore
import Testing
import TestSupport
@testable import Playback

/// The zoom's tiles reach the store whole whichever way they are written: past the page
/// cache, through it for a slow disk, or past it first and through it from some band on.
@Suite struct TileWriterTests {
    static let (width, height) = (1100, 600)

    /// A pixel that says where it is: no two of a picture this size are the same.
    static func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8(truncatingIfNeeded: x), UInt8(truncatingIfNeeded: y), UInt8(truncatingIfNeeded: (x >> 8) | (y >> 8) << 4))
    }

    /// Writes level 0 of the picture in bands of 256 rows, calling `between` before the first
    /// (with -1) and after each band has been written (with its index); then reads every
    /// tile back and returns how many pixels differ.
    static func writeAndReadBack(between: (Int, TileWriter) -> Void) throws -> Int {
        let store = try PyramidStore.create(in: nil)
        let layout = PyramidLayout(width: width, height: height, side: PyramidRegions.side)
        let writer = TileWriter(fd: store, layout: layout, bandRows: PyramidBuilder.bandRows)
        let stride = width * 4, bandRows = PyramidBuilder.bandRows
        let band = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * bandRows)
        defer { band.deallocate() }
        var start = 0
        between(-1, writer)
        while start < height {
            let rows = min(bandRows, height - start)
            for r in 0..<rows {
                for x in 0..<width {
                    let (a, b, c) = pixel(x, start + r)
                    let p = band + r * stride + x * 4
                    (p[0], p[1], p[2], p[3]) = (a, b, c, 255)
                }
            }
            writer.submit(TileWriter.Job(level: 0, band: band, stride: stride, start: start, rows: rows))
            writer.waitUntilFree(band)
            between(start / bandRows, writer)
            start += rows
        }
        if let why = writer.finish() { throw FixtureError(why) }
        let regions = PyramidRegions(reading: store, layout: layout, name: "tiles")
        let grid = layout.grid(level: 0)
        let tiles = try regions.tiles(level: 0, rows: 0...(grid.rows - 1), columns: 0...(grid.columns - 1),
                                      side: PyramidRegions.side, displayProfile: nil)
        var wrong = 0
        for (r, row) in tiles.enumerated() {
            for (c, tile) in row.enumerated() {
                let f = tile.frame.raw.pointee
                for y in 0..<Int(f.height) {
                    for x in 0..<Int(f.width) {
                        let p = f.data.0! + y * Int(f.linesize.0) + x * 4
                        let (a, b, c2) = pixel(c * layout.side + x, r * layout.side + y)
                        if p[0] != a || p[1] != b || p[2] != c2 || p[3] != 255 { wrong += 1 }
                    }
                }
            }
        }
        return wrong
    }

    @Test("Tiles written past the page cache, through it, and past it and then through it read back as written",
          arguments: ["past", "through", "switched"])
    func tilesReadBackAsWritten(way: String) throws {
        let wrong = try Self.writeAndReadBack { band, writer in
            if (way == "through" && band == -1) || (way == "switched" && band == 0) { writer.preferCache() }
        }
        #expect(wrong == 0, "\(way): \(wrong) pixels of the tiles are not the ones written")
    }
}
