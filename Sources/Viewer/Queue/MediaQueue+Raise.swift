/// The player's window brought forward on request from outside the window (a desktop's
/// media widget, MPRIS `Raise`).
extension MediaQueue {
    /// Shows the window in front of the others: a minimized item grows back first.
    public func raiseWindow() {
        guard let s = screen else { return }
        if let v = current, v.isMinimized { v.restore() }
        s.stage.unhide()
        s.stage.window.raise()
        s.stage.needsRedraw = true
    }
}
