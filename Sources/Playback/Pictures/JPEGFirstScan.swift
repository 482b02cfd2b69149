/// Follows the bytes of a JPEG as they arrive, to tell when its first scan is all in: for a
/// progressive file that is when the whole picture can be shown, blurry, usually within the
/// first few per cent of the file (a 24 MP photo's first scan ended at 4 %). It walks the
/// marker segments, skipping each payload by its length so that the markers of an EXIF
/// thumbnail inside one do not count, to the first SOS, then the entropy-coded data up to
/// the next marker that is not a restart marker or a stuffed byte.
///
/// Each call goes on from where the last one stopped: the file only grows.
struct JPEGFirstScan {
    private enum Place {
        /// At a marker between segments, at this offset.
        case segments(Int)
        /// Inside the first scan's data, looked at up to this offset.
        case scan(Int)
        /// The first scan is in.
        case complete
        /// Not a JPEG this can follow: only the share of the length counts then.
        case lost
    }

    private var place = Place.segments(2)

    /// Whether the first scan is all within `bytes`, the file so far.
    mutating func isComplete(in bytes: [UInt8]) -> Bool {
        while true {
            switch place {
            case .complete: return true
            case .lost: return false
            case .segments(let i):
                guard i + 4 <= bytes.count else { return false }
                guard bytes[i] == 0xFF else { place = .lost; return false }
                let marker = bytes[i + 1]
                if marker == 0xFF { place = .segments(i + 1); continue }
                // Markers without a length: a restart or TEM among the headers.
                if (0xD0...0xD7).contains(marker) || marker == 0x01 { place = .segments(i + 2); continue }
                let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                guard length >= 2 else { place = .lost; return false }
                place = marker == 0xDA ? .scan(i + 2 + length) : .segments(i + 2 + length)
            case .scan(let start):
                var j = start
                while j + 1 < bytes.count {
                    if bytes[j] == 0xFF {
                        let m = bytes[j + 1]
                        if m != 0x00 && m != 0xFF && !(0xD0...0xD7).contains(m) {
                            place = .complete
                            return true
                        }
                    }
                    j += 1
                }
                place = .scan(j)
                return false
            }
        }
    }
}
