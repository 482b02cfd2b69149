import Windowing

/// Where the gallery's cells are: a grid of equal cells, centred across the window, rows
/// from the top, scrolled by whole rows.
///
/// Everything here is arithmetic on the index, so a queue of 100,000 items costs the same
/// as one of ten: nothing is laid out for a cell that is not on screen.
struct GalleryLayout: Equatable {
    /// The window's area.
    let bounds: Rect
    /// Items in the queue.
    let count: Int
    /// The side of the square a thumbnail fits in.
    let thumbnail: Int
    /// The first row on screen.
    var topRow = 0
    /// Height of the file name under the thumbnail (taller on a HiDPI desktop, as its text is).
    var label = 22

    /// Space between cells and around the grid.
    static let gap = 12
    /// Padding around the thumbnail inside its cell.
    static let padding = 8

    var cellWidth: Int { thumbnail + 2 * Self.padding }
    var cellHeight: Int { thumbnail + 2 * Self.padding + label }
    var stepX: Int { cellWidth + Self.gap }
    var stepY: Int { cellHeight + Self.gap }

    var columns: Int { max(1, (bounds.width - Self.gap) / stepX) }
    var rows: Int { (count + columns - 1) / columns }
    /// Rows that fit whole on screen (at least one).
    var visibleRows: Int { max(1, (bounds.height - Self.gap) / stepY) }
    /// The farthest the grid scrolls: its last row at the bottom.
    var maxTopRow: Int { max(0, rows - visibleRows) }

    /// The left edge of the grid, centred in the window.
    var originX: Int { bounds.x + max(Self.gap, (bounds.width - (columns * stepX - Self.gap)) / 2) }
    var originY: Int { bounds.y + Self.gap }

    /// The items on screen, a partly shown last row included.
    var visible: Range<Int> {
        let first = min(count, topRow * columns)
        let rowsShown = (bounds.height - Self.gap + stepY - 1) / stepY
        return first..<min(count, first + max(1, rowsShown) * columns)
    }

    /// The cell of item `index` on screen (it may be off screen).
    func cell(_ index: Int) -> Rect {
        let row = index / columns - topRow, column = index % columns
        return Rect(x: originX + column * stepX, y: originY + row * stepY, width: cellWidth, height: cellHeight)
    }

    /// The square the thumbnail of a cell fits in.
    func thumbnailArea(of cell: Rect) -> Rect {
        Rect(x: cell.x + Self.padding, y: cell.y + Self.padding, width: thumbnail, height: thumbnail)
    }

    /// The item under a point, if a cell is there.
    func index(atX x: Int, y: Int) -> Int? {
        guard x >= originX, y >= originY else { return nil }
        let column = (x - originX) / stepX, row = (y - originY) / stepY
        guard column < columns, (x - originX) % stepX < cellWidth, (y - originY) % stepY < cellHeight else { return nil }
        let i = (topRow + row) * columns + column
        return i < count ? i : nil
    }

    /// This layout scrolled as little as needed for item `index` to be on screen whole.
    func showing(_ index: Int) -> GalleryLayout {
        var l = self
        let row = index / columns
        if row < topRow { l.topRow = row }
        if row >= topRow + visibleRows { l.topRow = row - visibleRows + 1 }
        l.topRow = max(0, min(l.topRow, maxTopRow))
        return l
    }

    /// This layout scrolled by `rows` (negative: up), within the grid.
    func scrolled(by rows: Int) -> GalleryLayout {
        var l = self
        l.topRow = max(0, min(topRow + rows, maxTopRow))
        return l
    }
}
