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
/// columns beside it are never transformed. Rows above are skipped quickly with an index
/// of where each row starts (`JPEGIndex`) when the file allows one, else by entropy-decoding
/// them. The file's bytes and that index are all it holds; the pieces belong to the caller,
/// who keeps as many as its memory budget allows.
public struct JPEGRegions: RegionSource, BandSource {
    /// The size stored in the file.
    public let width: Int
    public let height: Int
    private let bytes: [UInt8]
    /// The embedded colour profile, for tiles in the same colours as the fitted picture.
    private let icc: [UInt8]?
    /// Where each row of MCUs starts, so a tile at the bottom need not decode all above it;
    /// nil for a file it cannot cover (progressive, corrupt, ...), whose tiles skip rows.
    private let index: JPEGIndex?

    /// Reads the local JPEG at `path` (a path or a "file:" address) whole, and its header.
    public init(path: String) throws(AVError) {
        let p = path.hasPrefix("file:") ? String(path.dropFirst(5)) : path
        let name = SourceOptions.displayName(p)
        guard let bytes = try StillFile.read(p, name: name) else {
            throw AVError(message: "\(name): not a JPEG file that can be read")
        }
        try self.init(bytes: bytes, name: name)
    }

    /// The JPEG behind `fd`, a regular file of `size` bytes, read whole with `pread`: what
    /// a sandboxed worker, which may open no path, is handed.
    package init(fd: Int32, size: Int, name: String) throws(AVError) {
        guard size <= PictureFormat.largestFile else {
            throw AVError(message: "\(name): the picture file is \(size >> 20) MiB, more than the "
                          + "\(PictureFormat.largestFile >> 20) MiB read whole")
        }
        try self.init(bytes: WholeFile.read(fd, size: size), name: name)
    }

    /// The JPEG in `bytes` (a file's whole contents, named `name` in errors), its header read.
    package init(bytes: [UInt8], name: String) throws(AVError) {
        guard bytes.starts(with: StillFile.jpeg) else { throw AVError(message: "\(name): not a JPEG file that can be read") }
        let size = try bytes.withUnsafeBytes { raw in Result { () throws(AVError) in try JPEGStill.storedSize(raw) } }.get()
        self.bytes = bytes
        (width, height) = size
        icc = JPEGRegions.profile(bytes)
        // Once, when the picture opens (off the main thread): about a third of a second for a
        // 200 MP panorama, after which any tile skips the rows above it at once.
        index = JPEGIndex(bytes: bytes)
    }

    /// Whether tiles decode from rows cut out with the index rather than after skipping rows.
    var indexed: Bool { index != nil }

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

    /// The tiles of a grid of `side`-pixel squares over the picture at `level`, rows `rows`
    /// and columns `columns`, decoded in one pass (the rows above are read once for all of
    /// them), each its own BGR0 picture, row by row; the last column and row may be smaller.
    /// `displayProfile`: the display's ICC bytes (nil: sRGB), as the player was given them.
    public func tiles(level: Int, rows: ClosedRange<Int>, columns: ClosedRange<Int>, side: Int,
                      displayProfile: [UInt8]?) throws(AVError) -> [[VideoFrame]] {
        let area = try TileGrid(size: size(level: level), rows: rows, columns: columns, side: side)
        let band = try self.band(level: level, x: area.x, y: area.y, width: area.width, height: area.height,
                                 displayProfile: displayProfile)
        return try area.slice(band)
    }

    /// The pixels `width` x `height` at (x, y) of the picture at `level` halvings, in the
    /// display's colours (BGR0, or RGBA when a profile converted them).
    func band(level: Int, x: Int, y: Int, width w: Int, height h: Int,
                      displayProfile: [UInt8]?) throws(AVError) -> Frame {
        let (lw, lh) = size(level: level)
        guard (0...3).contains(level), x >= 0, y >= 0, w > 0, h > 0, x <= lw - w, y <= lh - h else {
            throw AVError(message: "a \(w)x\(h) piece at \(x),\(y) outside the \(lw)x\(lh) picture")
        }
        let band = try decode(level: level, x: x, y: y, width: w, height: h)
        if let icc, !icc.isEmpty, let sd = av_frame_new_side_data(band.raw, AV_FRAME_DATA_ICC_PROFILE, icc.count) {
            sd.pointee.data.update(from: icc, count: icc.count)
        }
        // In the display's colours, as the player manages the fitted picture (BGR0 or RGBA).
        return PictureColour(displayProfile: displayProfile, name: "").manage(band)
    }

    /// The pixels `width` x `height` at (x, y) of the picture at `level` halvings: from rows
    /// cut out with the index when it can, else from the whole file, whose errors are the
    /// user's to read (a piece that fails to decode is retried from the file).
    private func decode(level: Int, x: Int, y: Int, width w: Int, height h: Int) throws(AVError) -> Frame {
        if let frame = try? spliced(level: level, x: x, y: y, width: w, height: h) { return frame }
        return try skipped(level: level, x: x, y: y, width: w, height: h)
    }

    /// The same pixels decoded from the few rows and columns of MCUs around them, cut out
    /// with the index; nil when there is no index or nothing to skip.
    func spliced(level: Int, x: Int, y: Int, width w: Int, height h: Int) throws(AVError) -> Frame? {
        guard let piece = piece(level: level, x: x, y: y, width: w, height: h) else { return nil }
        return try Self.region(of: piece.bytes, level: level, x: x - piece.left, y: y - piece.top, width: w, height: h)
    }

    /// The JPEG of the few rows and columns of MCUs around those pixels, cut out with the
    /// index; nil when there is no index or nothing to skip.
    func piece(level: Int, x: Int, y: Int, width w: Int, height h: Int) -> JPEGIndex.Piece? {
        index?.piece(of: bytes, level: level, x: x, y: y, width: w, height: h)
    }

    /// The same pixels decoded from the whole file, libjpeg entropy-decoding the rows above.
    func skipped(level: Int, x: Int, y: Int, width w: Int, height h: Int) throws(AVError) -> Frame {
        try Self.region(of: bytes, level: level, x: x, y: y, width: w, height: h)
    }

    /// The pixels `width` x `height` at (x, y) of the JPEG in `bytes` at `level` halvings.
    private static func region(of bytes: [UInt8], level: Int, x: Int, y: Int, width w: Int,
                               height h: Int) throws(AVError) -> Frame {
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
}
