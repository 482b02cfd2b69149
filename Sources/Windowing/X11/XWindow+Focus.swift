import CX11

/// Who holds the keyboard focus, read from the server.
extension XDisplay {
    /// The window holding the keyboard focus; nil when none does (None, or PointerRoot:
    /// keys go to whatever window is under the pointer).
    public var focusHolder: UInt? {
        var window: UInt = 0
        var revert: Int32 = 0
        XGetInputFocus(raw, &window, &revert)
        return window == 0 || window == UInt(PointerRoot) ? nil : window
    }

    /// Whether `window` exists and is viewable, which the focus needs.
    func isViewable(_ window: UInt) -> Bool {
        var attrs = XWindowAttributes()
        XDisplay.errorCode.store(0, ordering: .relaxed)
        let ok = XGetWindowAttributes(raw, window, &attrs) != 0
        return ok && XDisplay.errorCode.load(ordering: .relaxed) == 0 && attrs.map_state == IsViewable
    }
}

/// Giving the keyboard focus back to the window that had it before this one, as an app
/// does when the user is done typing into it.
extension XWindow {
    /// Whether this window holds the keyboard focus now.
    public var hasFocus: Bool { display.focusHolder == id }

    /// Remembers which other window holds the focus: when this one is shown and each time
    /// it loses the focus, so that the focus can go back to the window the user came from.
    func noteFocusElsewhere() {
        // The root window holds it only when the focus reverted there (a window that had
        // it went away): no application's window to go back to.
        let holder = display.focusHolder
        if holder != id { focusBefore = holder == display.root ? nil : holder }
    }

    /// Gives up the keyboard focus to the window that had it before, or to PointerRoot
    /// (the window under the pointer) when there was none or it has gone since. False, and
    /// nothing changes, when this window does not hold the focus: a window gives away only
    /// what it has.
    @discardableResult
    public func giveFocusBack() -> Bool {
        guard hasFocus else { return false }
        let target = focusBefore.flatMap { display.isViewable($0) ? $0 : nil } ?? UInt(PointerRoot)
        XSetInputFocus(display.raw, target, Int32(RevertToPointerRoot), UInt(CurrentTime))
        XFlush(display.raw)
        return true
    }
}
