import CFFmpeg
import CRows
import Glibc
import MediaCore

/// One pass over a picture from its top, halving as the rows come: keeps one level whole
/// (the picture shown fitted) and, given a store, writes the tiles of levels 0...3 there.
///
/// What it holds at once: a band of `side` rows for each stored level, two rows for each
/// level between, and the kept level; never the whole picture. A 20,000 x 10,000 scan kept
/// at an eighth holds about 55 MB.
final class PyramidBuilder {
    /// Rows read from the file at a time: even, so a pair to halve never straddles two reads.
    static let chunk = 16

    private let levels: [PyramidLevel]
    private let store: (fd: Int32, layout: PyramidLayout)?
    private let name: String

    private init(levels: [PyramidLevel], store: (fd: Int32, layout: PyramidLayout)?, name: String) {
        (self.levels, self.store, self.name) = (levels, store, name)
    }

    /// Reads all of `reader` and returns level `keep` (`keep` halvings, rounded up), RGBA;
    /// with `store`, writes the tiles of levels 0...3 as `store.layout` places them.
    @discardableResult
    static func run(_ reader: RowReader, keep: Int?, store: (fd: Int32, layout: PyramidLayout)?,
                    name: String) throws(AVError) -> Frame? {
        let top = max(keep ?? 0, store == nil ? 0 : PyramidLayout.levels - 1)
        var levels: [PyramidLevel] = []
        var (w, h) = (reader.width, reader.height)
        for l in 0...top {
            let banded = store != nil && l < PyramidLayout.levels
            guard let level = PyramidLevel(width: w, height: h, band: banded ? store!.layout.side : 0, kept: l == keep) else {
                throw AVError(code: cff_averror(ENOMEM), message: "\(name): out of memory")
            }
            levels.append(level)
            (w, h) = ((w + 1) / 2, (h + 1) / 2)
        }
        try PyramidBuilder(levels: levels, store: store, name: name).read(reader)
        return keep.flatMap { levels[$0].kept }
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
        if level.band != nil, level.bandRows == store!.layout.side || i == level.height - 1 { try flush(l, lastRow: i) }
    }

    /// Writes the band of level `l` ending at `lastRow` as one row of tiles.
    private func flush(_ l: Int, lastRow: Int) throws(AVError) {
        guard let (fd, layout) = store, let band = levels[l].band else { return }
        let level = levels[l]
        let tileRow = lastRow / layout.side
        var pieces = [iovec](repeating: iovec(), count: level.bandRows)
        for column in 0..<layout.grid(level: l).columns {
            let size = layout.tileSize(level: l, column: column, row: tileRow)
            for r in 0..<level.bandRows {
                pieces[r] = iovec(iov_base: UnsafeMutableRawPointer(band + r * level.stride + column * layout.side * 4),
                                  iov_len: size.width * 4)
            }
            let want = size.width * 4 * level.bandRows
            // lseek and writev: a worker's system calls allow them on the file it was handed.
            let at = off_t(layout.offset(level: l, column: column, row: tileRow))
            let wrote = lseek(fd, at, SEEK_SET) == at
                ? pieces.withUnsafeBufferPointer { writev(fd, $0.baseAddress, Int32(level.bandRows)) } : -1
            guard wrote == want else {
                let why = wrote < 0 ? String(cString: strerror(errno)) : "the disk is full"
                throw AVError(message: "\(name): the zoom's tiles cannot be written (\(why))")
            }
        }
        level.bandRows = 0
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
    /// `side` rows being gathered into a row of tiles, for a stored level.
    let band: UnsafeMutablePointer<UInt8>?
    var bandRows = 0
    /// The whole level, for the level kept.
    let kept: Frame?

    /// Nil without memory: a file may claim any width, and the allocation must fail
    /// cleanly rather than end the process.
    init?(width: Int, height: Int, band side: Int, kept keep: Bool) {
        (self.width, self.height, stride) = (width, height, width * 4)
        let rows = [malloc(stride), malloc(stride)].compactMap { $0?.assumingMemoryBound(to: UInt8.self) }
        let band = side > 0 ? malloc(side * stride)?.assumingMemoryBound(to: UInt8.self) : nil
        let kept = keep ? PictureSources.frame(width: width, height: height) : nil
        guard rows.count == 2, side == 0 || band != nil, !keep || kept != nil else {
            rows.forEach { free($0) }
            free(band)
            return nil
        }
        (spare, self.band, self.kept) = (rows, band, kept)
    }

    deinit {
        spare.forEach { free($0) }
        free(band)
    }
}
