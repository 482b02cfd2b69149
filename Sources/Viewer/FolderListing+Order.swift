import Glibc
import Playback

/// The orders of a listing. Keys are worked out once per file, not once per comparison,
/// so sorting 100,000 names stays quick.
extension FolderListing {
    func sorted(_ entries: [Walk.Entry]) -> [Walk.Entry] {
        switch order {
        case .name:
            return byKey(entries) { NaturalKey(plain: Self.nameKey($0.relative)) }
        case .natural:
            return byKey(entries) { NaturalKey($0.relative) }
        case .mtime:
            return byKey(entries) { e in
                NaturalKey(e.relative, after: Self.fileStatus(e.path).map {
                    Double($0.st_mtim.tv_sec) + Double($0.st_mtim.tv_nsec) / 1e9 } ?? 0)
            }
        case .size:
            return byKey(entries) { NaturalKey($0.relative, after: Self.fileStatus($0.path).map { Double($0.st_size) } ?? 0) }
        case .random:
            return entries.shuffled()
        case .exifDate:
            return byKey(entries) { e in
                NaturalKey(e.relative, after: PhotoMetadata.dateTaken(path: e.path)
                    ?? Self.fileStatus(e.path).map { Double($0.st_mtim.tv_sec) } ?? 0)
            }
        }
    }

    /// Sorts by one byte key per entry, made once.
    private func byKey(_ entries: [Walk.Entry], _ key: (Walk.Entry) -> NaturalKey) -> [Walk.Entry] {
        let keys = entries.map(key)
        return entries.indices.sorted { keys[$0] < keys[$1] }.map { entries[$0] }
    }

    /// Name bytes with the folder separator lowest, so a folder's files stay together
    /// ("a/x" before "a b/y").
    static func nameKey(_ relative: String) -> [UInt8] {
        relative.utf8.map { $0 == UInt8(ascii: "/") ? 1 : $0 }
    }

    private static func fileStatus(_ path: String) -> stat? {
        var st = stat()
        return stat(path, &st) == 0 ? st : nil
    }
}

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
