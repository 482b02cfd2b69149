import Glibc
import Playback

/// A name as bytes whose plain byte order is natural order: digit runs compare by value,
/// the rest byte by byte with ASCII letters folded to lower case, and the name's own bytes
/// break ties so the order is total ("a" and "A" never swap between runs). One flat array
/// compared with memcmp, because sorting 100,000 names must not freeze the first picture.
public struct NaturalKey: Comparable, Sendable {
    let bytes: [UInt8]

    /// The key of a name or relative path (its "/" sorts before any other byte).
    public init(_ name: String) {
        let raw = FolderListing.nameKey(name)
        var key: [UInt8] = []
        key.reserveCapacity(raw.count * 2 + 8)
        var i = 0
        while i < raw.count {
            let b = raw[i]
            guard b >= 48 && b <= 57 else {
                key.append(b >= 65 && b <= 90 ? b + 32 : b)
                i += 1
                continue
            }
            // Leading zeros do not change the value; the raw bytes at the end break the tie.
            var j = i
            while j < raw.count && raw[j] == 48 { j += 1 }
            var end = j
            while end < raw.count && raw[end] >= 48 && raw[end] <= 57 { end += 1 }
            // A number sorts before text at the same place; a longer number is larger.
            let length = end - j
            key.append(2)
            key.append(UInt8(truncatingIfNeeded: min(length, 0xFFFF) >> 8))
            key.append(UInt8(truncatingIfNeeded: min(length, 0xFFFF)))
            key.append(contentsOf: raw[j..<end])
            i = end
        }
        key.append(0)
        key.append(contentsOf: raw)
        bytes = key
    }

    /// Bytes compared as they are.
    init(plain: [UInt8]) { bytes = plain }

    /// A number first (time, size, date), then the name's natural order for ties.
    init(_ name: String, after number: Double) {
        // IEEE 754 bits, flipped so that byte order is numeric order, negatives included.
        let bits = number.bitPattern
        let ordered = bits >> 63 == 1 ? ~bits : bits | (1 << 63)
        bytes = (0..<8).map { UInt8(truncatingIfNeeded: ordered >> (56 - 8 * $0)) } + NaturalKey(name).bytes
    }

    /// Natural order; see the type.
    public static func < (a: NaturalKey, b: NaturalKey) -> Bool {
        a.bytes.withUnsafeBufferPointer { p in
            b.bytes.withUnsafeBufferPointer { q in
                let n = min(p.count, q.count)
                let c = n == 0 ? 0 : memcmp(p.baseAddress!, q.baseAddress!, n)
                return c != 0 ? c < 0 : p.count < q.count
            }
        }
    }
}
