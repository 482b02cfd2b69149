import Testing
@testable import Viewer
import Windowing

/// The gallery's grid as arithmetic: cells where the pointer finds them, scrolling that keeps
/// the highlight on screen, and a huge queue costing no more than a small one.
@Suite struct GalleryLayoutTests {
    static let window = Rect(x: 0, y: 0, width: 800, height: 600)

    @Test func everyCellOnScreenIsFoundUnderItsOwnMiddle() {
        var l = GalleryLayout(bounds: Self.window, count: 10_000, thumbnail: 128)
        l.topRow = 137
        #expect(l.columns == 5)
        #expect(l.visible.count <= l.columns * (l.visibleRows + 1))
        for i in l.visible {
            let c = l.cell(i)
            #expect(l.index(atX: c.x + c.width / 2, y: c.y + c.height / 2) == i)
            #expect(c.x >= 0 && c.maxX <= Self.window.width)
        }
        // The gap between cells is no cell.
        let first = l.cell(l.visible.lowerBound)
        #expect(l.index(atX: first.maxX + GalleryLayout.gap / 2, y: first.y + 5) == nil)
    }

    @Test func onlyTheRowsOnScreenAreVisibleWhateverTheQueue() {
        let small = GalleryLayout(bounds: Self.window, count: 7, thumbnail: 128)
        #expect(small.visible == 0..<7)
        var huge = GalleryLayout(bounds: Self.window, count: 100_000, thumbnail: 128)
        huge.topRow = huge.maxTopRow
        #expect(huge.visible.upperBound == 100_000)
        #expect(huge.visible.count <= huge.columns * (huge.visibleRows + 1))
    }

    @Test func showingScrollsAsLittleAsNeeded() {
        let l = GalleryLayout(bounds: Self.window, count: 1000, thumbnail: 128)
        #expect(l.showing(3).topRow == 0)
        let down = l.showing(l.columns * 10)
        #expect(down.topRow == 10 - l.visibleRows + 1)
        #expect(down.showing(l.columns * 10 - 1).topRow == down.topRow)
        #expect(down.showing(0).topRow == 0)
        #expect(l.showing(999).topRow == l.maxTopRow)
        #expect(l.scrolled(by: -5).topRow == 0)
        #expect(l.scrolled(by: 1_000_000).topRow == l.maxTopRow)
    }

    @Test func aWindowNarrowerThanACellStillHasOneColumn() {
        let l = GalleryLayout(bounds: Rect(x: 0, y: 0, width: 50, height: 40), count: 3, thumbnail: 128)
        #expect(l.columns == 1)
        #expect(l.visibleRows == 1)
        #expect(l.visible == 0..<1)
    }

    @Test func theGallerySectionLaysItsKeysOverTheUsualOnes() {
        let b = InputBindings.defaults
        #expect(b.command(for: "g") == .toggleGallery)
        #expect(b.command(for: "LEFT", in: "gallery") == .galleryMove(columns: -1, rows: 0))
        #expect(b.command(for: "ENTER", in: "gallery") == .galleryOpen)
        #expect(b.command(for: "ESC", in: "gallery") == .toggleGallery)
        // Keys the section leaves alone keep their usual command.
        #expect(b.command(for: "q", in: "gallery") == .quit)
        #expect(b.command(for: "LEFT") == .seek(seconds: -5))
        let again = InputBindings.parse(b.listing(), source: "listing")
        #expect(again.problems.isEmpty)
        #expect(again.bindings.commands == b.commands)
    }

    @Test func badGalleryLinesAreReportedAndTheRestLoads() {
        let text = """
        {gallery} RIGHT gallery-move 2 0
        {gallry} LEFT gallery-move -1 0
        {gallery LEFT gallery-first
        {gallery} UP gallery-move up 1
        {gallery} PGUP gallery-page 0
        {gallery} DOWN ignore
        """
        let r = InputBindings.parse(text, source: "in.conf")
        #expect(r.problems == [
            "in.conf:2: unknown section '{gallry}' (known: {gallery}, {still})",
            "in.conf:3: a section needs a closing '}'",
            "in.conf:4: gallery-move needs a whole number, got 'up'",
            "in.conf:5: gallery-page needs a step between -1000 and 1000 other than 0, got '0'",
        ])
        let merged = InputBindings.defaults.merging(r.bindings)
        #expect(merged.command(for: "RIGHT", in: "gallery") == .galleryMove(columns: 2, rows: 0))
        // Unbound in the gallery: the usual binding shows through.
        #expect(merged.command(for: "DOWN", in: "gallery") == .seek(seconds: -60))
    }
}
