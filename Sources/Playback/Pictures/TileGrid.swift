import CFFmpeg
import Glibc
import MediaCore

/// The piece of a picture that a block of tiles covers, and the tiles cut out of it once
/// decoded: the same cut for a piece decoded here or in a sandboxed worker.
struct TileGrid {
    let rows: ClosedRange<Int>
    let columns: ClosedRange<Int>
    let side: Int
    /// Where the piece lies in the picture at its level, and its size.
    let x: Int, y: Int, width: Int, height: Int

    /// The piece covering `rows` x `columns` of `side`-pixel squares over a picture of `size`.
    init(size: (width: Int, height: Int), rows: ClosedRange<Int>, columns: ClosedRange<Int>, side: Int) throws(AVError) {
        let (lw, lh) = size
        let x = columns.lowerBound * side, y = rows.lowerBound * side
        let w = min(lw, (columns.upperBound + 1) * side) - x, h = min(lh, (rows.upperBound + 1) * side) - y
        guard side > 0, columns.lowerBound >= 0, rows.lowerBound >= 0, w > 0, h > 0 else {
            throw AVError(message: "tiles \(columns) x \(rows) outside the \(lw)x\(lh) picture")
        }
        (self.rows, self.columns, self.side) = (rows, columns, side)
        (self.x, self.y, width, height) = (x, y, w, h)
    }

    /// The tiles of the decoded piece `band` (4 bytes a pixel), row by row, each a picture
    /// of its own; the last column and row may be smaller.
    func slice(_ band: Frame) throws(AVError) -> [[VideoFrame]] {
        let b = band.raw
        guard let base = b.pointee.data.0 else { throw AVError(message: "a piece without pixels") }
        return try slice(UnsafeRawPointer(base), stride: Int(b.pointee.linesize.0), format: b.pointee.format)
    }

    /// The tiles of the piece whose rows of 4-byte `format` pixels start at `base`, `stride`
    /// bytes apart.
    func slice(_ base: UnsafeRawPointer, stride: Int, format: Int32) throws(AVError) -> [[VideoFrame]] {
        var out: [[VideoFrame]] = []
        for r in rows {
            let ry = r * side - y, rh = min(side, height - ry)
            guard rh > 0 else { break }
            var row: [VideoFrame] = []
            for c in columns {
                let cx = c * side - x, cw = min(side, width - cx)
                guard cw > 0 else { break }
                row.append(try Self.copy(base + ry * stride + cx * 4, stride: stride, format: format, width: cw, height: rh))
            }
            out.append(row)
        }
        return out
    }

    /// `width` x `height` pixels from `src`, rows `stride` bytes apart, as a picture of their own.
    private static func copy(_ src: UnsafeRawPointer, stride ss: Int, format: Int32, width w: Int,
                             height h: Int) throws(AVError) -> VideoFrame {
        let tile = Frame()
        let t = tile.raw
        t.pointee.format = format
        t.pointee.width = Int32(w)
        t.pointee.height = Int32(h)
        guard av_frame_get_buffer(t, 0) >= 0, let dst = t.pointee.data.0 else {
            throw AVError(code: cff_averror(ENOMEM), message: "no memory for a \(w)x\(h) tile")
        }
        let ds = Int(t.pointee.linesize.0)
        for row in 0..<h { memcpy(dst + row * ds, src + row * ss, w * 4) }
        t.pointee.key_frame = 1
        return VideoFrame(frame: tile, pts: 0, duration: 0, serial: 0, rotation: 0)
    }
}
