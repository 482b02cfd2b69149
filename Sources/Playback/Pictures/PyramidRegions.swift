import CFFmpeg
import Glibc
import MediaCore

/// The zoom detail of a PNG or TIFF too large to hold whole: its tile pyramid, built in one
/// pass over the file into a store on disk, read back a tile at a time.
///
/// Neither format can start decoding in the middle (a PNG's rows are one compressed stream;
/// a TIFF's strips could be read alone, but its reduced levels could not), so the pass that
/// builds the pyramid is paid once, while the fitted picture is on screen, and every zoom
/// and pan after it only reads. The store is the caller's file; it is closed with this.
/// Tiles come in sRGB: an embedded or display profile is not applied to these pictures.
package final class PyramidRegions: RegionSource, BandSource {
    public let width: Int
    public let height: Int
    private let store: Int32
    private let layout: PyramidLayout
    private let name: String

    /// The tiles in `store`, a pyramid already built as `layout` places it (it becomes this
    /// source's): the one the fitted picture's pass wrote is read here without a worker,
    /// since it holds nothing but pixels that pass made.
    package init(reading store: Int32, layout: PyramidLayout, name: String) {
        (self.store, self.layout, self.name) = (store, layout, name)
        (width, height) = (layout.width, layout.height)
    }

    /// Whether a picture of this size can have a pyramid: the zoom's requests name places
    /// in 16 bits.
    static func fits(width: Int, height: Int) -> Bool {
        width <= RegionRequest.largestSide && height <= RegionRequest.largestSide
    }

    deinit { close(store) }

    /// Tiles are squares of this many pixels, as the zoom asks for them.
    package static let side = 512

    /// Builds the pyramid of the PNG or TIFF behind `file` (read with pread; it stays the
    /// caller's) into `store`, which becomes the source's (closed with it, or here on failure).
    package static func build(file: Int32, store: Int32, name: String) throws(AVError) -> PyramidRegions {
        do throws(AVError) {
            let format = try RowReader.Format(fd: file, name: name)
            let reader = try RowReader(fd: file, format: format, name: name)
            // The zoom's requests name places in 16 bits, and a level-0 band is 512 rows of it.
            guard fits(width: reader.width, height: reader.height) else {
                throw AVError(message: "\(name): picture is \(reader.width)x\(reader.height), too large to zoom into "
                              + "(at most \(RegionRequest.largestSide) pixels a side)")
            }
            let layout = PyramidLayout(width: reader.width, height: reader.height, side: side)
            try PyramidBuilder.run(reader, keep: nil, store: (store, layout), name: name)
            return PyramidRegions(reading: store, layout: layout, name: name)
        } catch {
            close(store)
            throw error
        }
    }

    public func tiles(level: Int, rows: ClosedRange<Int>, columns: ClosedRange<Int>, side: Int,
                      displayProfile: [UInt8]?) throws(AVError) -> [[VideoFrame]] {
        let area = try TileGrid(size: size(level: level), rows: rows, columns: columns, side: side)
        guard side == layout.side, (0..<PyramidLayout.levels).contains(level) else {
            return try area.slice(band(level: level, x: area.x, y: area.y, width: area.width, height: area.height,
                                       displayProfile: displayProfile))
        }
        let grid = layout.grid(level: level)
        var out: [[VideoFrame]] = []
        for r in rows where r < grid.rows {
            var row: [VideoFrame] = []
            for c in columns where c < grid.columns {
                let (w, h) = layout.tileSize(level: level, column: c, row: r)
                guard let tile = PictureSources.frame(width: w, height: h), let base = tile.raw.pointee.data.0 else {
                    throw AVError(code: cff_averror(ENOMEM), message: "no memory for a \(w)x\(h) tile")
                }
                try read(level: level, column: c, row: r, into: base, stride: Int(tile.raw.pointee.linesize.0))
                row.append(VideoFrame(frame: tile, pts: 0, duration: 0, serial: 0, rotation: 0))
            }
            out.append(row)
        }
        return out
    }

    func band(level: Int, x: Int, y: Int, width w: Int, height h: Int,
                      displayProfile: [UInt8]?) throws(AVError) -> Frame {
        let (lw, lh) = size(level: level)
        let side = layout.side
        guard (0..<PyramidLayout.levels).contains(level), x >= 0, y >= 0, w > 0, h > 0, x <= lw - w, y <= lh - h,
              x % side == 0, y % side == 0 else {
            throw AVError(message: "a \(w)x\(h) piece at \(x),\(y) outside the tiles of the \(lw)x\(lh) picture")
        }
        guard let band = PictureSources.frame(width: w, height: h), let base = band.raw.pointee.data.0 else {
            throw AVError(code: cff_averror(ENOMEM), message: "no memory for a \(w)x\(h) piece")
        }
        let stride = Int(band.raw.pointee.linesize.0)
        for r in (y / side)...((y + h - 1) / side) {
            for c in (x / side)...((x + w - 1) / side) {
                let (tw, th) = layout.tileSize(level: level, column: c, row: r)
                // The band ends where the caller's area does: a tile past it is cut.
                let rows = min(th, y + h - r * side), columns = min(tw, x + w - c * side)
                try read(level: level, column: c, row: r, into: base + (r * side - y) * stride + (c * side - x) * 4,
                         stride: stride, rows: rows, columns: columns)
            }
        }
        return band
    }

    /// Reads one tile (or its top-left `rows` x `columns`) into `into`, `stride` bytes a row.
    private func read(level: Int, column: Int, row: Int, into: UnsafeMutablePointer<UInt8>, stride: Int,
                      rows: Int? = nil, columns: Int? = nil) throws(AVError) {
        let (tw, th) = layout.tileSize(level: level, column: column, row: row)
        let count = tw * th * 4
        let packed = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        defer { packed.deallocate() }
        var got = 0
        let at = layout.offset(level: level, column: column, row: row)
        while got < count {
            let n = pread(store, packed + got, count - got, off_t(at + got))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw AVError(message: "\(name): the zoom's tiles cannot be read") }
            got += n
        }
        let copied = min(columns ?? tw, tw) * 4
        for r in 0..<min(rows ?? th, th) { (into + r * stride).update(from: packed + r * tw * 4, count: copied) }
    }
}
