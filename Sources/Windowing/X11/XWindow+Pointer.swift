import CX11

extension XWindow {
    /// Shows `shape` while the pointer is over this window. Free when it is already shown.
    public func setPointer(_ shape: PointerShape) {
        guard shape != pointerShape else { return }
        pointerShape = shape
        if shape == .standard {
            XUndefineCursor(display.raw, Window(id))
        } else {
            XDefineCursor(display.raw, Window(id), display.cursor(shape))
        }
    }
}
