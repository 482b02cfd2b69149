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
    /// Stored pixel columns in one column of MCUs, and how many columns a row has.
    let columnWidth: Int
    let columns: Int

    /// Rows of MCUs cut out of the file as a JPEG of their own: the rows at and below `top`
    /// (a pixel row of the picture at the level asked for) are the file's from there down,
    /// and its columns from `left` (a pixel column at that level, negative when the piece
    /// begins with flat columns that carry the predictors over) rightwards.
    struct Piece {
        let bytes: [UInt8]
        let top: Int
        var left = 0
    }

    /// Reads the whole scan of the JPEG in `bytes`; nil when the index cannot cover it (the
    /// kind of JPEG, or data that is corrupt or cut short), and tiles decode the slow way.
    init?(bytes: [UInt8]) {
        var status = CJPEG_OK
        let built = bytes.withUnsafeBufferPointer { cjpeg_index_build($0.baseAddress, $0.count, &status) }
        guard let built else { return nil }
        rowHeight = Int(cjpeg_index_row_height(built))
        rows = Int(cjpeg_index_rows(built))
        columnWidth = Int(cjpeg_index_column_width(built))
        columns = Int(cjpeg_index_columns(built))
        handle = Mutex(built)
    }

    deinit { handle.withLock { cjpeg_index_free($0) } }

    /// The rows of MCUs holding pixel rows `y..<y+height` and columns `x..<x+width` of the
    /// picture at `level` halvings of `bytes` (the bytes indexed), with one MCU more on every
    /// side where there is one: libjpeg's smooth chroma upsampling reads the chroma around a
    /// pixel, and the piece must come out as the same pixels as the whole file. Only the
    /// columns asked for when the file allows, else whole rows. Nil when the piece would be
    /// the whole file from the top anyway (nothing to skip) or cannot be cut; the caller
    /// decodes the file then.
    func piece(of bytes: [UInt8], level: Int, x: Int, y: Int, width: Int, height: Int) -> Piece? {
        let scaled = rowHeight >> level, across = columnWidth >> level
        guard scaled > 0, across > 0, x >= 0, y >= 0, width > 0, height > 0 else { return nil }
        let first = max(0, y / scaled - 1), end = min(rows, (y + height - 1) / scaled + 2)
        let column = max(0, x / across - 1), columnEnd = min(columns, (x + width - 1) / across + 2)
        guard first < end, column < columnEnd else { return nil }
        return handle.withLock { ix -> Piece? in
            var length = 0
            let area = bytes.withUnsafeBufferPointer { b -> Piece? in
                var left: Int32 = 0
                guard let made = cjpeg_index_splice_area(ix, b.baseAddress, b.count, Int32(first), Int32(end),
                                                         Int32(column), Int32(columnEnd), &left, &length) else { return nil }
                defer { free(made) }
                return Piece(bytes: Array(UnsafeBufferPointer(start: made, count: length)), top: first * scaled,
                             left: Int(left) * across)
            }
            if let area { return area }
            guard first > 0 else { return nil }
            var start: Int32 = 0
            let made = bytes.withUnsafeBufferPointer {
                cjpeg_index_splice(ix, $0.baseAddress, $0.count, Int32(first), Int32(end), &start, &length)
            }
            guard let made else { return nil }
            defer { free(made) }
            return Piece(bytes: Array(UnsafeBufferPointer(start: made, count: length)), top: Int(start) * scaled)
        }
    }
}
