import CFFmpeg
import CRows
import Glibc
import MediaCore

/// One pass over a picture from its top, halving as the rows come: keeps one level whole
/// (the picture shown fitted) and, given a store, writes the tiles of levels 0...3 there.
///
/// What it holds at once: two bands of `bandRows` rows for each stored level (one filled
/// while the other is written), two rows for each level between, and the kept level; never
/// the whole picture. A 20,000 x 10,000 scan kept at an eighth holds about 90 MB.
final class PyramidBuilder {
    /// Rows read from the file at a time: even, so a pair to halve never straddles two reads.
    static let chunk = 16
    /// Rows of a level gathered before they are written: a tile's rows lie together in its
    /// slot, so a band need not be a whole row of tiles. A multiple of `chunk` and a divisor
    /// of the tiles' side. 256 rows of a 512-pixel tile are one 512 KiB write past the page
    /// cache; a disk takes such writes in half the time of 128 KiB ones, which waited on
    /// each other and held up the pass.
    static let bandRows = 256

    private let levels: [PyramidLevel]
    private let store: (fd: Int32, layout: PyramidLayout)?
    private let writer: TileWriter?
    /// The store is written on the side of the fitted picture: a disk that fills costs the
    /// zoom its tiles, never the picture.
    private let storeIsOptional: Bool
    private let name: String

    private init(levels: [PyramidLevel], store: (fd: Int32, layout: PyramidLayout)?, optional: Bool, name: String) {
        (self.levels, self.store, storeIsOptional, self.name) = (levels, store, optional, name)
        writer = store.map { TileWriter(fd: $0.fd, layout: $0.layout, bandRows: Self.bandRows) }
    }

    /// What a pass made: the level kept, and whether every tile reached the store.
    struct Outcome {
        var kept: Frame?
        var stored: Bool
    }

    /// Reads all of `reader` and returns level `keep` (`keep` halvings, rounded up), RGBA;
    /// with `store`, writes the tiles of levels 0...3 as `store.layout` places them. With
    /// `storeIsOptional`, a store that cannot be written is given up and the pass goes on.
    @discardableResult
    static func run(_ reader: RowReader, keep: Int?, store: (fd: Int32, layout: PyramidLayout)?,
                    storeIsOptional: Bool = false, name: String) throws(AVError) -> Outcome {
        let top = max(keep ?? 0, store == nil ? 0 : PyramidLayout.levels - 1)
        var levels: [PyramidLevel] = []
        var (w, h) = (reader.width, reader.height)
        for l in 0...top {
            let banded = store != nil && l < PyramidLayout.levels
            guard let level = PyramidLevel(width: w, height: h, band: banded ? Self.bandRows : 0, kept: l == keep) else {
                throw AVError(code: cff_averror(ENOMEM), message: "\(name): out of memory")
            }
            levels.append(level)
            (w, h) = ((w + 1) / 2, (h + 1) / 2)
        }
        let builder = PyramidBuilder(levels: levels, store: store, optional: storeIsOptional, name: name)
        do {
            try builder.read(reader)
        } catch {
            // The bands are freed with the levels: the writer must be done with them first.
            _ = builder.writer?.finish()
            throw error
        }
        if let why = builder.writer?.finish() {
            guard storeIsOptional else { throw AVError(message: "\(name): the zoom's tiles cannot be written (\(why))") }
            return Outcome(kept: keep.flatMap { levels[$0].kept }, stored: false)
        }
        return Outcome(kept: keep.flatMap { levels[$0].kept }, stored: store != nil)
    }

    private func read(_ reader: RowReader) throws(AVError) {
        let first = levels[0]
        let scratch = first.band == nil ? malloc(Self.chunk * first.stride)?.assumingMemoryBound(to: UInt8.self) : nil
        defer { free(scratch) }
        guard first.band != nil || scratch != nil else { throw AVError(code: cff_averror(ENOMEM), message: "\(name): out of memory") }
        var y = 0
        while y < reader.height {
            let n = min(Self.chunk, reader.height - y)
            // With a band the rows land where they are kept, and are not copied again.
            let rows = first.band.map { $0 + first.bandRows * first.stride } ?? scratch!
            try reader.read(into: rows, rows: n)
            for i in 0..<n { try push(0, rows + i * first.stride) }
            y += n
        }
    }

    /// Row `row` of level `l`, the next in order: kept, banded and written, and paired with
    /// the one before it into a row of the next level.
    private func push(_ l: Int, _ row: UnsafeMutablePointer<UInt8>) throws(AVError) {
        let level = levels[l]
        let i = level.received
        level.received += 1
        var at = row
        if let band = level.band {
            let to = band + level.bandRows * level.stride
            if to != row { to.update(from: row, count: level.stride) }
            level.bandRows += 1
            at = to
        }
        if let kept = level.kept, let base = kept.raw.pointee.data.0 {
            (base + i * Int(kept.raw.pointee.linesize.0)).update(from: at, count: level.stride)
        }
        if l + 1 < levels.count {
            if i % 2 == 0 { level.pending = at }
            if i % 2 == 1 || i == level.height - 1 {
                let next = levels[l + 1]
                let out = next.spare[(i / 2) % 2]
                crows_halve(level.pending!, at, Int32(level.width), out)
                try push(l + 1, out)
            }
        }
        if level.band != nil, level.bandRows == level.bandSide || i == level.height - 1 { try flush(l, lastRow: i) }
    }

    /// Hands the band of level `l` to the writer and goes on in the level's other band,
    /// once the writer is done with it.
    private func flush(_ l: Int, lastRow: Int) throws(AVError) {
        let level = levels[l]
        guard let writer, let band = level.band, level.bandRows > 0 else { return }
        writer.submit(TileWriter.Job(level: l, band: band, stride: level.stride, start: lastRow + 1 - level.bandRows,
                                     rows: level.bandRows))
        level.swapBands()
        if let next = level.band { writer.waitUntilFree(next) }
    }
}

/// One level of a pyramid being built: its rows as they come, and the buffers they pass through.
private final class PyramidLevel {
    let width: Int, height: Int, stride: Int
    /// Rows of this level received so far.
    var received = 0
    /// The even row waiting for the odd one below it, to be halved together.
    var pending: UnsafeMutablePointer<UInt8>?
    /// Where the level above writes this level's rows, alternately.
    let spare: [UnsafeMutablePointer<UInt8>]
    /// Two bands of `bandSide` rows, for a stored level: one gathering rows while the
    /// other is written.
    private let bands: [UnsafeMutablePointer<UInt8>]
    private var current = 0
    let bandSide: Int
    var bandRows = 0
    /// The band gathering rows now.
    var band: UnsafeMutablePointer<UInt8>? { bands.isEmpty ? nil : bands[current] }

    /// Starts gathering in the other band.
    func swapBands() {
        current = (current + 1) % max(1, bands.count)
        bandRows = 0
    }
    /// The whole level, for the level kept.
    let kept: Frame?

    /// Nil without memory: a file may claim any width, and the allocation must fail
    /// cleanly rather than end the process.
    init?(width: Int, height: Int, band side: Int, kept keep: Bool) {
        (self.width, self.height, stride) = (width, height, width * 4)
        let rows = [malloc(stride), malloc(stride)].compactMap { $0?.assumingMemoryBound(to: UInt8.self) }
        let bands = side > 0 ? [malloc(side * stride), malloc(side * stride)].compactMap { $0?.assumingMemoryBound(to: UInt8.self) } : []
        let kept = keep ? PictureSources.frame(width: width, height: height) : nil
        guard rows.count == 2, side == 0 || bands.count == 2, !keep || kept != nil else {
            rows.forEach { free($0) }
            bands.forEach { free($0) }
            return nil
        }
        (spare, self.bands, bandSide, self.kept) = (rows, bands, side, kept)
    }

    deinit {
        spare.forEach { free($0) }
        bands.forEach { free($0) }
    }
}
