import Foundation
import Testing
import TestSupport
@testable import Playback

/// Phone and camera photos carry their turn in EXIF: shown upright, reported upright.
@Suite(.serialized) struct JPEGOrientationTests {
    /// An APP1 Exif segment whose IFD0 holds Make and Orientation, in either byte order.
    static func exifSegment(orientation: Int, bigEndian: Bool = false, asLong: Bool = false) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        var tiff: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8)
        tiff += u16(2)
        tiff += u16(0x010F) + u16(2) + u32(4) + Array("abc\0".utf8)  // Make, inline
        tiff += asLong ? u16(0x0112) + u16(4) + u32(1) + u32(orientation)
                       : u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)
        let body = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }

    /// A 96x48 JPEG, red on its left half and blue on its right, with `orientation` in EXIF
    /// (nil: no EXIF at all).
    static func photo(orientation: Int?) throws -> String {
        let plain = try Fixtures.make("pt-exif-plain-red-left.jpg", [
            "-f", "lavfi", "-i", "color=c=red:s=48x48", "-f", "lavfi", "-i", "color=c=blue:s=48x48",
            "-filter_complex", "[0:v][1:v]hstack", "-frames:v", "1", "-q:v", "2"])
        guard let o = orientation else { return plain }
        let path = Fixtures.directory + "/pt-exif-orientation-\(o).jpg"
        if !FileManager.default.fileExists(atPath: path) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
            let out = Array(bytes[0..<2]) + exifSegment(orientation: o) + Array(bytes[2...])
            try Data(out).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    @Test("Orientation 1, 3, 6 and 8 turn the photo upright; its reported size is the upright one",
          arguments: [(nil, 0, "left"), (1, 0, "left"), (3, 180, "right"), (6, 90, "top"), (8, 270, "bottom")])
    func upright(orientation: Int?, degrees: Int, redSide: String) throws {
        let d = PlayerDriver(try Self.photo(orientation: orientation), audio: false)
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.rotation == degrees)
        #expect(degrees % 180 == 0 ? (info.width, info.height) == (96, 48) : (info.width, info.height) == (48, 96),
                "reported \(info.width)x\(info.height)")
        let f = try #require(d.firstFrame(), "no picture")
        #expect(f.displaySize == (info.width, info.height))
        let (side, _) = RotationTests.ourRedSide(f)
        #expect(side == redSide, "red is on the \(side) with orientation \(String(describing: orientation))")
    }

    @Test("The reader takes both byte orders and LONG values, and rejects what is out of range")
    func reader() {
        func read(_ segment: [UInt8]) -> Int? {
            let jpeg: [UInt8] = [0xFF, 0xD8] + segment + [0xFF, 0xDA, 0x00, 0x02]
            return jpeg.withUnsafeBytes { JPEGOrientation.orientation(ofJPEG: $0) }
        }
        #expect(read(Self.exifSegment(orientation: 6)) == 6)
        #expect(read(Self.exifSegment(orientation: 8, bigEndian: true)) == 8)
        #expect(read(Self.exifSegment(orientation: 3, bigEndian: true, asLong: true)) == 3)
        #expect(read(Self.exifSegment(orientation: 0)) == nil)
        #expect(read(Self.exifSegment(orientation: 9)) == nil)
        #expect(read([]) == nil)
    }

    @Test("Damaged EXIF never reads past the bytes: every cut and every single-byte change")
    func damaged() {
        let good: [UInt8] = [0xFF, 0xD8] + Self.exifSegment(orientation: 6) + [0xFF, 0xDA, 0x00, 0x02]
        for cut in 0..<good.count {
            let r = Array(good[0..<cut]).withUnsafeBytes { JPEGOrientation.rotation(ofJPEG: $0) }
            #expect([0, 90].contains(r))
        }
        for i in 0..<good.count {
            for v: UInt8 in [0x00, 0xFF, 0x7F] {
                var b = good
                b[i] = v
                let r = b.withUnsafeBytes { JPEGOrientation.rotation(ofJPEG: $0) }
                #expect([0, 90, 180, 270].contains(r))
            }
        }
    }
}
