import CX11

/// The keyboard focus, set from outside as a window manager or another program would: so a
/// test decides whether `xdotool` types through the keyboard (XTEST, the window focused) or
/// sends events to a window that lacks the focus (XSendEvent).
extension ScreenProbe {
    /// Gives the focus to `window`, or with nil to whatever is under the pointer
    /// (PointerRoot, the server's default); returns once the server has done it.
    public func setFocus(_ window: UInt?) {
        XSetInputFocus(display, window ?? UInt(PointerRoot), Int32(RevertToPointerRoot), UInt(CurrentTime))
        XSync(display, 0)
    }

    /// The window that has the focus now (PointerRoot is 1, None 0).
    public var focusedWindow: UInt {
        var window: UInt = 0
        var revert: Int32 = 0
        XGetInputFocus(display, &window, &revert)
        return window
    }
}
