import Foundation

/// Photos as cameras write them for galleries: an EXIF block whose IFD1 holds a small JPEG
/// of the picture. Here that small JPEG is a different picture from the photo, so a test
/// can see which of the two a thumbnail was made from, and which way round it came out.
extension Fixtures {
    /// How the EXIF thumbnail of `cameraJPEG` is written.
    public enum ExifThumbnail: String, Sendable, CaseIterable {
        /// A 160x120 JPEG, blue with a lime top-left quarter, where IFD1 says.
        case good
        /// IFD1's offset points a megabyte past the end of the file.
        case offsetPastTheEnd
        /// IFD1's length runs past the end of the segment and of the file.
        case lengthPastTheEnd
        /// The bytes IFD1 points to are text, not a JPEG.
        case notAJPEG
    }

    /// A red JPEG of `width` x `height` with EXIF `orientation` and an embedded thumbnail
    /// written as `thumbnail` says (its IFD1 also says Compression 6, JPEG, as cameras do).
    /// `grainy` adds sensor-like noise, which makes the photo as slow to decode as a real one
    /// of its size (a flat colour decodes many times faster).
    public static func cameraJPEG(orientation: Int = 1, thumbnail: ExifThumbnail = .good,
                                  width: Int = 640, height: Int = 480, grainy: Bool = false) throws -> String {
        let grain = grainy ? "-grainy" : ""
        let path = directory + "/camera-red\(grain)-\(width)x\(height)-o\(orientation)-\(thumbnail.rawValue).jpg"
        if FileManager.default.fileExists(atPath: path) { return path }
        let photo = try make("camera-main-red\(grain)-\(width)x\(height).jpg",
                             ["-f", "lavfi", "-i", "color=c=red:s=\(width)x\(height)"]
                                 + (grainy ? ["-vf", "noise=alls=24:allf=t"] : []) + ["-frames:v", "1", "-q:v", "2"])
        let small = try make("camera-thumb-blue-lime-160x120.jpg", [
            "-f", "lavfi", "-i", "color=c=blue:s=160x120", "-vf", "drawbox=x=0:y=0:w=80:h=60:color=lime:t=fill",
            "-frames:v", "1", "-q:v", "2"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        let segment = exifSegment(orientation: orientation, thumbnail: [UInt8](try Data(contentsOf: URL(fileURLWithPath: small))),
                                  damage: thumbnail)
        let tmp = path + ".tmp-\(getpid())"
        try Data(Array(bytes[0..<2]) + segment + Array(bytes[2...])).write(to: URL(fileURLWithPath: tmp))
        guard rename(tmp, path) == 0 else { throw FixtureError("cannot rename fixture \(path)") }
        return path
    }

    /// An APP1 Exif segment, little-endian: IFD0 with Orientation, IFD1 with the thumbnail.
    static func exifSegment(orientation: Int, thumbnail: [UInt8], damage: ExifThumbnail) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        func entry(_ tag: Int, short v: Int) -> [UInt8] { u16(tag) + u16(3) + u32(1) + u16(v) + [0, 0] }
        func entry(_ tag: Int, long v: Int) -> [UInt8] { u16(tag) + u16(4) + u32(1) + u32(v) }
        // TIFF header (8 bytes), IFD0 at 8 (18 bytes), IFD1 at 26 (42 bytes), the picture at 68.
        let at = 68
        let payload = damage == .notAJPEG ? Array(String(repeating: "no JPEG here, only words. ", count: 80).utf8) : thumbnail
        let offset = damage == .offsetPastTheEnd ? at + (1 << 20) : at
        let length = damage == .lengthPastTheEnd ? payload.count + 100_000 : payload.count
        var tiff: [UInt8] = Array("II".utf8) + u16(42) + u32(8)
        tiff += u16(1) + entry(0x0112, short: orientation) + u32(26)
        tiff += u16(3) + entry(0x0103, short: 6) + entry(0x0201, long: offset) + entry(0x0202, long: length) + u32(0)
        tiff += payload
        let body = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }
}
