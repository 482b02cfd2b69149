import CFFmpeg
import CJPEG
import Glibc
import MediaCore
import Web

/// A JPEG too large to hold whole, decoded a piece at a time for a zoomed view.
///
/// A photo over the pixel budget is shown fitted from a reduced decode; zoomed in, only the
/// pieces on screen are decoded, at the scale they are shown (libjpeg's 1/1, 1/2, 1/4, 1/8),
/// with libjpeg-turbo's partial decoding: rows above a piece are entropy-decoded only and
/// columns beside it are never transformed. The file's bytes are all it holds; the pieces
/// belong to the caller, who keeps as many as its memory budget allows.
public struct JPEGRegions: Sendable {
    /// The size stored in the file.
    public let width: Int
    public let height: Int
    private let bytes: [UInt8]
    /// The embedded colour profile, for tiles in the same colours as the fitted picture.
    private let icc: [UInt8]?

    /// Reads the local JPEG at `path` (a path or a "file:" address) whole, and its header.
    public init(path: String) throws(AVError) {
        let p = path.hasPrefix("file:") ? String(path.dropFirst(5)) : path
        let name = SourceOptions.displayName(p)
        guard let bytes = try StillFile.read(p, name: name), bytes.starts(with: StillFile.jpeg) else {
            throw AVError(message: "\(name): not a JPEG file that can be read")
        }
        let size = try bytes.withUnsafeBytes { raw in Result { () throws(AVError) in try JPEGStill.storedSize(raw) } }.get()
        self.bytes = bytes
        (width, height) = size
        icc = JPEGRegions.profile(bytes)
    }

    /// The ICC profile in the file's APP2 markers, if any.
    private static func profile(_ bytes: [UInt8]) -> [UInt8]? {
        guard let d = cjpeg_new() else { return nil }
        defer { cjpeg_free(d) }
        return bytes.withUnsafeBytes { raw -> [UInt8]? in
            var info = cjpeg_info()
            var length: UInt32 = 0
            guard cjpeg_read_header(d, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, 8, &info) == CJPEG_OK,
                  let p = cjpeg_icc_profile(d, &length) else { return nil }
            defer { free(p) }
            return Array(UnsafeBufferPointer(start: p, count: Int(length)))
        }
    }

    /// The picture's size at `level` halvings (0...3), as libjpeg rounds it: up.
    public func size(level: Int) -> (width: Int, height: Int) {
        let d = 1 << max(0, min(level, 3))
        return ((width + d - 1) / d, (height + d - 1) / d)
    }

    /// The tiles of a grid of `side`-pixel squares over the picture at `level`, rows `rows`
    /// and columns `columns`, decoded in one pass (the rows above are read once for all of
    /// them), each its own BGR0 picture, row by row; the last column and row may be smaller.
    /// `displayProfile`: the display's ICC bytes (nil: sRGB), as the player was given them.
    public func tiles(level: Int, rows: ClosedRange<Int>, columns: ClosedRange<Int>, side: Int,
                      displayProfile: [UInt8]?) throws(AVError) -> [[VideoFrame]] {
        let (lw, lh) = size(level: level)
        let x = columns.lowerBound * side, y = rows.lowerBound * side
        let w = min(lw, (columns.upperBound + 1) * side) - x, h = min(lh, (rows.upperBound + 1) * side) - y
        guard columns.lowerBound >= 0, rows.lowerBound >= 0, w > 0, h > 0 else {
            throw AVError(message: "tiles \(columns) x \(rows) outside the \(lw)x\(lh) picture")
        }
        var band = try decode(level: level, x: x, y: y, width: w, height: h)
        if let icc, !icc.isEmpty, let sd = av_frame_new_side_data(band.raw, AV_FRAME_DATA_ICC_PROFILE, icc.count) {
            sd.pointee.data.update(from: icc, count: icc.count)
        }
        // In the display's colours, as the player manages the fitted picture (BGR0 or RGBA).
        band = PictureColour(displayProfile: displayProfile, name: "").manage(band)
        var out: [[VideoFrame]] = []
        for r in rows {
            let ry = r * side - y, rh = min(side, h - ry)
            guard rh > 0 else { break }
            var row: [VideoFrame] = []
            for c in columns {
                let cx = c * side - x, cw = min(side, w - cx)
                guard cw > 0 else { break }
                row.append(try copy(band, x: cx, y: ry, width: cw, height: rh))
            }
            out.append(row)
        }
        return out
    }

    /// The pixels `width` x `height` at (x, y) of the picture at `level` halvings.
    private func decode(level: Int, x: Int, y: Int, width w: Int, height h: Int) throws(AVError) -> Frame {
        guard let d = cjpeg_new() else { throw AVError(code: cff_averror(ENOMEM), message: "libjpeg: out of memory") }
        defer { cjpeg_free(d) }
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = AV_PIX_FMT_BGR0.rawValue
        f.pointee.width = Int32(w)
        f.pointee.height = Int32(h)
        guard av_frame_get_buffer(f, 0) >= 0, let dst = f.pointee.data.0 else {
            throw AVError(code: cff_averror(ENOMEM), message: "libjpeg: no memory for a \(w)x\(h) piece")
        }
        let status = bytes.withUnsafeBytes { raw -> cjpeg_status in
            var info = cjpeg_info()
            let s = cjpeg_read_header(d, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count,
                                      Int32(1 << level), &info)
            guard s == CJPEG_OK else { return s }
            // A piece needs only row buffers; a progressive file would need every coefficient.
            cjpeg_limit_memory(d, 64 << 20)
            return cjpeg_decode_region(d, Int32(x), Int32(y), Int32(w), Int32(h), dst, Int(f.pointee.linesize.0))
        }
        guard status == CJPEG_OK else {
            throw AVError(code: cff_averror_invaliddata, message: "libjpeg: " + String(cString: cjpeg_message(d)))
        }
        return frame
    }

    /// The `width` x `height` pixels at (x, y) of `band` (4 bytes a pixel) as a picture of their own.
    private func copy(_ band: Frame, x: Int, y: Int, width w: Int, height h: Int) throws(AVError) -> VideoFrame {
        let tile = Frame()
        let t = tile.raw, b = band.raw
        t.pointee.format = b.pointee.format
        t.pointee.width = Int32(w)
        t.pointee.height = Int32(h)
        guard av_frame_get_buffer(t, 0) >= 0, let dst = t.pointee.data.0, let src = b.pointee.data.0 else {
            throw AVError(code: cff_averror(ENOMEM), message: "no memory for a \(w)x\(h) tile")
        }
        let ds = Int(t.pointee.linesize.0), ss = Int(b.pointee.linesize.0)
        for row in 0..<h {
            (dst + row * ds).update(from: src + (y + row) * ss + x * 4, count: w * 4)
        }
        t.pointee.key_frame = 1
        return VideoFrame(frame: tile, pts: 0, duration: 0, serial: 0, rotation: 0)
    }
}
