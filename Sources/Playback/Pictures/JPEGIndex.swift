import CJPEG
import Glibc
import Synchronization

/// Where each row of MCUs starts in a huge baseline JPEG, found by reading its entropy data
/// once, so that a zoomed-in tile near the bottom of a 200 MP panorama decodes in tens of
/// milliseconds instead of entropy-decoding the whole file above it.
///
/// A tile is decoded from a few rows cut out of the file as a JPEG of their own (`piece`),
/// which libjpeg decodes exactly as it would the file. Progressive, arithmetic-coded,
/// 12-bit or corrupt files have no index; their tiles decode the slow way, as before.
final class JPEGIndex: Sendable {
    /// The C index, read by one splice at a time: it is freed only when the last tile
    /// request holding the regions is done.
    private let handle: Mutex<OpaquePointer>
    /// Stored pixel rows in one row of MCUs.
    let rowHeight: Int
    /// How many rows of MCUs the picture has.
    let rows: Int

    /// Rows of MCUs cut out of the file as a JPEG of their own: the rows at and below `top`
    /// (a pixel row of the picture at the level asked for) are the file's from there down.
    struct Piece {
        let bytes: [UInt8]
        let top: Int
    }

    /// Reads the whole scan of the JPEG in `bytes`; nil when the index cannot cover it (the
    /// kind of JPEG, or data that is corrupt or cut short), and tiles decode the slow way.
    init?(bytes: [UInt8]) {
        var status = CJPEG_OK
        let built = bytes.withUnsafeBufferPointer { cjpeg_index_build($0.baseAddress, $0.count, &status) }
        guard let built else { return nil }
        rowHeight = Int(cjpeg_index_row_height(built))
        rows = Int(cjpeg_index_rows(built))
        handle = Mutex(built)
    }

    deinit { handle.withLock { cjpeg_index_free($0) } }

    /// The rows of MCUs holding pixel rows `y..<y+height` of the picture at `level` halvings
    /// of `bytes` (the bytes indexed), with one row more above and below where there is one:
    /// libjpeg's smooth chroma upsampling reads the chroma rows around a row, and the piece
    /// must come out as the same pixels as the whole file. Nil when the piece would start at
    /// the top anyway (nothing to skip) or cannot be cut; the caller decodes the file then.
    func piece(of bytes: [UInt8], level: Int, y: Int, height: Int) -> Piece? {
        let scaled = rowHeight >> level
        guard scaled > 0, y >= 0, height > 0 else { return nil }
        let first = max(0, y / scaled - 1), end = min(rows, (y + height - 1) / scaled + 2)
        guard first > 0, first < end else { return nil }
        return handle.withLock { ix -> Piece? in
            var start: Int32 = 0
            var length = 0
            let made = bytes.withUnsafeBufferPointer {
                cjpeg_index_splice(ix, $0.baseAddress, $0.count, Int32(first), Int32(end), &start, &length)
            }
            guard let made else { return nil }
            defer { free(made) }
            return Piece(bytes: Array(UnsafeBufferPointer(start: made, count: length)), top: Int(start) * scaled)
        }
    }
}
