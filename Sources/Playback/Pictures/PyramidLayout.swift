/// Where each tile of a picture's pyramid lies in its store: levels 0...3 (each half the
/// size of the one before, rounded up as libjpeg's scaling is, so the zoom treats a PNG or
/// TIFF as it treats a JPEG), every level cut into `side`-pixel squares, each square in a
/// slot of its own, row by row, packed RGBA.
///
/// The store is a file, not memory: level 0 alone of a 20,000 x 10,000 picture is 800 MB.
/// The tiles on screen are read back a few at a time; the page cache keeps the recent ones.
package struct PyramidLayout: Sendable, Equatable {
    /// The levels stored: those the zoom asks for.
    static let levels = 4
    package let width: Int
    package let height: Int
    package let side: Int

    package init(width: Int, height: Int, side: Int) {
        (self.width, self.height, self.side) = (width, height, side)
    }

    /// The picture's size at `level` halvings, rounded up.
    func size(level: Int) -> (width: Int, height: Int) {
        let d = 1 << level
        return ((width + d - 1) / d, (height + d - 1) / d)
    }

    /// Tiles across and down at `level`.
    func grid(level: Int) -> (columns: Int, rows: Int) {
        let (w, h) = size(level: level)
        return ((w + side - 1) / side, (h + side - 1) / side)
    }

    /// Bytes of one slot: a whole tile. Edge tiles use the start of theirs.
    var slotBytes: Int { side * side * 4 }

    /// The size of the tile at `column`, `row` of `level`.
    func tileSize(level: Int, column: Int, row: Int) -> (width: Int, height: Int) {
        let (w, h) = size(level: level)
        return (min(side, w - column * side), min(side, h - row * side))
    }

    /// Where the tile at `column`, `row` of `level` starts in the store.
    func offset(level: Int, column: Int, row: Int) -> Int {
        var slot = 0
        for l in 0..<level {
            let g = grid(level: l)
            slot += g.columns * g.rows
        }
        return (slot + row * grid(level: level).columns + column) * slotBytes
    }

    /// The store's whole length.
    var storeBytes: Int { offset(level: Self.levels, column: 0, row: 0) }
}
