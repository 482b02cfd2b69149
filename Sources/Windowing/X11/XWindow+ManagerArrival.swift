import CX11

/// A window manager that starts after the viewer's window is up (a session script that
/// starts the viewer first, a manager replaced or restarted) takes the window on as an
/// ordinary one; what only the manager can give is asked of it again.
extension XWindow {
    /// A window manager arrived after the window was shown: a fullscreen window asks it for
    /// fullscreen, both as the state property it reads when it takes the window on and as
    /// the request it answers once it has, since either may come first.
    func windowManagerChanged() {
        guard display.hasWindowManager, isFullscreen, !isEmbedded, isMapped else { return }
        var atom = display.atom("_NET_WM_STATE_FULLSCREEN")
        XChangeProperty(display.raw, id, display.atom("_NET_WM_STATE"), XA_ATOM, 32, PropModeReplace,
                        withUnsafeBytes(of: &atom) { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
        sendState(1, "_NET_WM_STATE_FULLSCREEN")
    }
}
