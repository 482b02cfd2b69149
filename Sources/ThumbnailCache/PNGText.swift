/// The `tEXt` chunks of a PNG file: read from one, or put into one.
///
/// The desktop's thumbnail cache keeps what a thumbnail is of (`Thumb::URI`) and the file's
/// modification time when it was made (`Thumb::MTime`) in these chunks, so a viewer must read
/// them to know whether a cached thumbnail is still the file's, and write them for file
/// managers and other viewers to trust its thumbnails.
public enum PNGText {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The keyword and text of every `tEXt` chunk, in file order; nil when `bytes` is not a
    /// PNG file. Reading stops at `IEND` or at the first chunk that does not fit the file,
    /// and at 1,000 chunks, so damaged or hostile bytes cost little.
    public static func read(_ bytes: [UInt8]) -> [(keyword: String, text: String)]? {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
        var out: [(String, String)] = []
        var at = 8
        for _ in 0..<1000 {
            guard at + 8 <= bytes.count else { break }
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let start = at + 8
            guard length >= 0, length <= bytes.count - start - 4 else { break }
            let data = bytes[start..<(start + length)]
            if type == "tEXt", let zero = data.firstIndex(of: 0) {
                // Latin-1, as the PNG specification says: each byte is its own code point.
                let latin1 = { (s: ArraySlice<UInt8>) in String(String.UnicodeScalarView(s.map { Unicode.Scalar($0) })) }
                out.append((latin1(data[..<zero]), latin1(data[(zero + 1)...])))
            }
            if type == "IEND" { break }
            at = start + length + 4
        }
        return out
    }

    /// The text of the first `tEXt` chunk with this keyword.
    public static func value(_ keyword: String, in bytes: [UInt8]) -> String? {
        read(bytes)?.first { $0.keyword == keyword }?.text
    }

    /// `png` with `tEXt` chunks for `entries` put right after its header chunk; nil when
    /// `png` does not start with a PNG signature and header, or a keyword or text is not
    /// Latin-1 (keywords: 1 to 79 characters).
    public static func inserting(_ entries: [(keyword: String, text: String)], into png: [UInt8]) -> [UInt8]? {
        // Signature (8), then IHDR: length (4), type (4), 13 bytes of data, CRC (4).
        guard png.count >= 33, Array(png[0..<8]) == signature, String(decoding: png[12..<16], as: UTF8.self) == "IHDR" else {
            return nil
        }
        var chunks: [UInt8] = []
        for (keyword, text) in entries {
            guard (1...79).contains(keyword.unicodeScalars.count),
                  let k = latin1(keyword), let t = latin1(text), !k.contains(0), !t.contains(0) else { return nil }
            chunks += chunk("tEXt", k + [0] + t)
        }
        return Array(png[0..<33]) + chunks + Array(png[33...])
    }

    static func latin1(_ s: String) -> [UInt8]? {
        var out: [UInt8] = []
        for u in s.unicodeScalars {
            guard u.value < 256 else { return nil }
            out.append(UInt8(u.value))
        }
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let n = UInt32(data.count)
        let typed = Array(type.utf8) + data
        let crc = crc32(typed)
        return [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + typed
            + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }

    /// PNG's CRC-32 (ISO 3309), over a chunk's type and data.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
