/// EXIF blocks (the TIFF structure inside a JPEG's APP1 segment) built byte by byte, so a
/// test can say exactly what a camera, or a crafted file, writes: either byte order, text
/// inside its entry or after the directories, the Exif and GPS sub-IFDs, and any count or
/// offset, true or not.
struct ExifWriter {
    /// Motorola ("MM") rather than Intel ("II") byte order.
    let bigEndian: Bool

    /// One IFD entry: its four value bytes as given, or values laid out after the IFDs.
    struct Field {
        let tag: Int
        let type: Int
        let count: Int
        let inline: [UInt8]?
        let payload: [UInt8]
    }

    func u16(_ v: Int) -> [UInt8] {
        bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
    }

    func u32(_ v: Int) -> [UInt8] {
        bigEndian ? u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF)
    }

    /// An entry exactly as given: any type, count and four value bytes.
    func entry(_ tag: Int, type: Int, count: Int, value: [UInt8]) -> Field {
        Field(tag: tag, type: type, count: count, inline: value, payload: [])
    }

    /// NUL-terminated ASCII text, inside the entry when it fits in four bytes.
    func ascii(_ tag: Int, _ text: String) -> Field {
        let bytes = Array(text.utf8) + [0]
        if bytes.count <= 4 { return entry(tag, type: 2, count: bytes.count, value: bytes + Array(repeating: 0, count: 4 - bytes.count)) }
        return Field(tag: tag, type: 2, count: bytes.count, inline: nil, payload: bytes)
    }

    /// One SHORT.
    func short(_ tag: Int, _ v: Int) -> Field { entry(tag, type: 3, count: 1, value: u16(v) + [0, 0]) }

    /// RATIONALs, numerator over denominator.
    func rationals(_ tag: Int, _ values: [(Int, Int)]) -> Field {
        Field(tag: tag, type: 5, count: values.count, inline: nil, payload: values.flatMap { u32($0.0) + u32($0.1) })
    }

    /// The byte-order mark, 42, and IFD0 at 8.
    func header() -> [UInt8] { (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8) }

    /// The TIFF structure: IFD0 (naming the Exif and GPS sub-IFDs when they have fields)
    /// linking to `next`, the sub-IFDs after it, then the values that did not fit.
    func tiff(ifd0: [Field], exif: [Field] = [], gps: [Field] = [], next: Int = 0) -> [UInt8] {
        func size(_ n: Int) -> Int { n == 0 ? 0 : 2 + 12 * n + 4 }
        let mainCount = ifd0.count + (exif.isEmpty ? 0 : 1) + (gps.isEmpty ? 0 : 1)
        let exifAt = 8 + size(mainCount), gpsAt = exifAt + size(exif.count)
        let dataAt = gpsAt + size(gps.count)
        var data: [UInt8] = []
        func ifd(_ fields: [Field], next: Int) -> [UInt8] {
            guard !fields.isEmpty else { return [] }
            var out = u16(fields.count)
            for f in fields {
                out += u16(f.tag) + u16(f.type) + u32(f.count) + (f.inline ?? u32(dataAt + data.count))
                data += f.payload
            }
            return out + u32(next)
        }
        var pointers: [Field] = []
        if !exif.isEmpty { pointers.append(entry(0x8769, type: 4, count: 1, value: u32(exifAt))) }
        if !gps.isEmpty { pointers.append(entry(0x8825, type: 4, count: 1, value: u32(gpsAt))) }
        let ifds = ifd(ifd0 + pointers, next: next) + ifd(exif, next: 0) + ifd(gps, next: 0)
        return header() + ifds + data
    }

    /// What the camera fixture's EXIF says (exiftool's layout: date, lens and exposure in
    /// the Exif sub-IFD, the place in the GPS one).
    func camera() -> [UInt8] {
        tiff(ifd0: [ascii(0x010F, "Canon"), ascii(0x0110, "Canon EOS R5")],
             exif: [ascii(0x9003, "2024:07:14 18:22:05"), ascii(0xA434, "RF35mm F1.8 MACRO IS STM"),
                    rationals(0x829D, [(18, 10)]), rationals(0x829A, [(1, 250)]), short(0x8827, 100),
                    rationals(0x920A, [(35, 1)])],
             gps: [ascii(1, "N"), rationals(2, [(48, 1), (51, 1), (3024, 100)]),
                   ascii(3, "E"), rationals(4, [(2, 1), (17, 1), (4020, 100)])])
    }
}
