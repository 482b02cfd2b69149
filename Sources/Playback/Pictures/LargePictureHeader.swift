import Glibc

/// The stored size of a PNG or TIFF, read from its header alone, so that a picture too
/// large to hold whole is sent down the path that never holds it before any decoder (which
/// would allocate the whole picture first) sees it.
///
/// Only fixed fields are read: PNG's IHDR, and the width and height tags of a TIFF's first
/// directory (classic or BigTIFF), at most 4,096 entries. Nothing here allocates by what
/// the file says; a value that makes no sense is "not known", and the usual path decides.
package enum LargePictureHeader {
    /// The size stored in the file whose first bytes are `head`, reading a TIFF's first
    /// directory from `fd` with pread; nil when not a PNG or TIFF or not readable.
    package static func size(head: [UInt8], fd: Int32) -> (width: Int, height: Int)? {
        size(head: head) { offset, count in
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
    }

    /// The stored size of the PNG or TIFF that is the whole of `bytes`.
    static func size(bytes: [UInt8]) -> (width: Int, height: Int)? {
        size(head: Array(bytes.prefix(PictureFormat.headSize))) { offset, count in
            offset >= 0 && count <= bytes.count - offset ? Array(bytes[offset..<(offset + count)]) : nil
        }
    }

    /// The size, reading a TIFF's directory with `read` (`count` bytes at `offset`, or nil).
    private static func size(head: [UInt8], read: (Int, Int) -> [UInt8]?) -> (width: Int, height: Int)? {
        if head.starts(with: StillFile.png) {
            // Signature, IHDR's length and type, then width and height, big-endian.
            guard head.count >= 24, head[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
            let w = Int(big(head, 16, 4)), h = Int(big(head, 20, 4))
            return w > 0 && h > 0 ? (w, h) : nil
        }
        guard let little = tiffByteOrder(head) else { return nil }
        let big64 = head[2] == (little ? 0x2B : 0) && head[3] == (little ? 0 : 0x2B)
        func value(_ bytes: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
            little ? Self.little(bytes, at, count) : big(bytes, at, count)
        }
        guard head.count >= 16 else { return nil }
        let first = big64 ? value(head, 8, 8) : value(head, 4, 4)
        let countSize = big64 ? 8 : 2, entrySize = big64 ? 20 : 12
        guard first >= 8, first < UInt64(Int.max / 2) else { return nil }
        guard let countBytes = read(Int(first), countSize) else { return nil }
        let entries = Int(min(value(countBytes, 0, countSize), 4096))
        guard entries > 0, let table = read(Int(first) + countSize, entries * entrySize) else { return nil }
        var width: UInt64?, height: UInt64?
        for i in 0..<entries {
            let e = i * entrySize
            let tag = value(table, e, 2), type = value(table, e + 2, 2)
            guard tag == 256 || tag == 257 else { continue }
            // SHORT (3) or LONG (4), or BigTIFF's LONG8 (16); the value is in the entry itself.
            let at = e + (big64 ? 12 : 8)
            let v: UInt64? = switch type {
            case 3: value(table, at, 2)
            case 4: value(table, at, 4)
            case 16 where big64: value(table, at, 8)
            default: nil
            }
            if tag == 256 { width = v } else { height = v }
        }
        guard let w = width, let h = height, (1...UInt64(Int32.max)).contains(w), (1...UInt64(Int32.max)).contains(h) else {
            return nil
        }
        return (Int(w), Int(h))
    }

    /// Whether `head` starts a TIFF (classic or BigTIFF): true for little-endian, false for
    /// big-endian, nil when it is not one.
    static func tiffByteOrder(_ head: [UInt8]) -> Bool? {
        guard head.count >= 4 else { return nil }
        if head[0] == 0x49, head[1] == 0x49, head[3] == 0, head[2] == 0x2A || head[2] == 0x2B { return true }
        if head[0] == 0x4D, head[1] == 0x4D, head[2] == 0, head[3] == 0x2A || head[3] == 0x2B { return false }
        return nil
    }

    private static func big(_ b: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        guard at >= 0, at + count <= b.count else { return 0 }
        return b[at..<at + count].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func little(_ b: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        guard at >= 0, at + count <= b.count else { return 0 }
        return b[at..<at + count].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
