/// The values a photo's facts are made of (text, rationals, the sub-IFDs' places), read
/// from the EXIF block as the file gives them.
///
/// Every count, offset and `count × size` is the file's word: each is checked, without
/// arithmetic that could trap, against the segment before a byte is read, and a value that
/// would lie outside it is absent. Only IFD0 and the two sub-IFDs it names are looked in,
/// one step each, so a directory that names itself cannot keep the reader going round.
extension ExifBlock {
    /// The TIFF tags read here.
    enum Tag {
        static let exifIFD = 0x8769
        static let gpsIFD = 0x8825
    }

    /// Bytes per value of each TIFF type (BYTE, ASCII, SHORT, LONG, RATIONAL, SBYTE,
    /// UNDEFINED, SSHORT, SLONG, SRATIONAL, FLOAT, DOUBLE, IFD); other types are not read.
    private static let typeSizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8,
                                                11: 4, 12: 8, 13: 4]

    /// The longest text kept of one tag: more than any camera, lens or date needs, and
    /// what the info panel can show on one line.
    static let maxText = 255

    /// One tag's values: their TIFF type, how many, and where they start in `tiff` (the
    /// whole `count × size` bytes lie inside it).
    struct Entry {
        let type: Int
        let count: Int
        let data: Int
    }

    /// The entry of `tag` in the IFD at `ifd`, nil when the IFD does not hold it or its
    /// values would lie outside the segment.
    func entry(_ tag: Int, inIFDAt ifd: Int) -> Entry? {
        guard let n = u16(ifd) else { return nil }
        for k in 0..<n {
            let e = ifd + 2 + 12 * k
            guard let t = u16(e), let type = u16(e + 2), let count = u32(e + 4) else { return nil }
            guard t == tag else { continue }
            guard let size = Self.typeSizes[type] else { return nil }
            let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow else { return nil }
            // Four bytes or fewer sit in the entry itself; more lie where it points.
            guard let data = bytes <= 4 ? e + 8 : u32(e + 8), data <= tiff.count, bytes <= tiff.count - data else { return nil }
            return Entry(type: type, count: count, data: data)
        }
        return nil
    }

    /// The first IFD of `ifds` holding `tag` as ASCII text: up to its first NUL, spaces
    /// trimmed, bytes that are not UTF-8 shown as U+FFFD; nil when empty.
    func text(_ tag: Int, in ifds: [Int]) -> String? {
        for ifd in ifds {
            guard let e = entry(tag, inIFDAt: ifd), e.type == 2 else { continue }
            let bytes = tiff[e.data..<(e.data + min(e.count, Self.maxText))].prefix { $0 != 0 }
            let text = Substring(String(decoding: bytes, as: UTF8.self)).trimmingSpaces
            return text.isEmpty ? nil : text
        }
        return nil
    }

    /// The first `limit` RATIONAL values of `tag` in the IFD at `ifd`, each nil when its
    /// denominator is 0; empty when the tag is absent or of another type.
    func rationals(_ tag: Int, inIFDAt ifd: Int?, limit: Int) -> [Double?] {
        guard let ifd, let e = entry(tag, inIFDAt: ifd), e.type == 5 else { return [] }
        return (0..<min(e.count, limit)).map { i in
            guard let numerator = u32(e.data + 8 * i), let denominator = u32(e.data + 8 * i + 4),
                  denominator != 0 else { return nil }
            return Double(numerator) / Double(denominator)
        }
    }

    /// The first of `ifds` holding `tag` as one SHORT value.
    func short(_ tag: Int, in ifds: [Int]) -> Int? {
        for ifd in ifds {
            guard let e = entry(tag, inIFDAt: ifd), e.type == 3, e.count >= 1 else { continue }
            return u16(e.data)
        }
        return nil
    }

    /// Where the sub-IFD that `tag` of the IFD at `ifd` points to starts: inside the
    /// segment, past the header, and not the IFD itself.
    func subIFD(_ tag: Int, inIFDAt ifd: Int) -> Int? {
        guard let e = entry(tag, inIFDAt: ifd), e.type == 4 || e.type == 13, e.count == 1,
              let at = u32(e.data), at >= 8, at < tiff.count, at != ifd else { return nil }
        return at
    }

    /// IFD0, then the Exif sub-IFD it names: where a photo's date, camera and exposure lie.
    var photoIFDs: [Int] {
        guard let main = ifd0 else { return [] }
        return [main] + (subIFD(Tag.exifIFD, inIFDAt: main).map { [$0] } ?? [])
    }

    /// The GPS sub-IFD IFD0 names, where the photo's place lies.
    var gpsIFD: Int? { ifd0.flatMap { subIFD(Tag.gpsIFD, inIFDAt: $0) } }
}
