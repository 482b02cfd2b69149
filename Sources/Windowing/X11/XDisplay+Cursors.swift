import CX11

extension XDisplay {
    /// The server's cursor for `shape`, made on first use: the cursor theme's own where the
    /// desktop has one, else the core cursor font's four-way arrow for a hand (the shape X
    /// programs pan with), and an empty one for `hidden`. Each is named on the server with
    /// its theme name, as the theme's cursors are.
    func cursor(_ shape: PointerShape) -> Cursor {
        if let c = cursors[shape] { return c }
        let c: Cursor
        switch shape {
        case .hidden:
            c = blankCursor()
        case .standard, .grab, .grabbing:
            let themed = XcursorLibraryLoadCursor(raw, shape.themeName)
            c = themed != 0 ? themed : XCreateFontCursor(raw, UInt32(shape == .standard ? XC_left_ptr : XC_fleur))
        }
        XFixesSetCursorName(raw, c, shape.themeName)
        cursors[shape] = c
        return c
    }

    /// A cursor of one transparent pixel: how X programs hide the pointer over their own
    /// window, with nothing but the core protocol.
    private func blankCursor() -> Cursor {
        var none: CChar = 0
        let pixmap = XCreateBitmapFromData(raw, root, &none, 1, 1)
        defer { XFreePixmap(raw, pixmap) }
        // Neither colour shows through an empty mask.
        var foreground = XColor(), background = XColor()
        return XCreatePixmapCursor(raw, pixmap, pixmap, &foreground, &background, 0, 0)
    }
}
