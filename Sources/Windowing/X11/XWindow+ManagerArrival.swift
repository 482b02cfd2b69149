import CX11

/// What a window asks of a window manager beyond its own geometry: fullscreen, or a
/// floating thumbnail above the others on every workspace.
struct ManagerRequests {
    var fullscreen = false
    var floating = false
    var onAllWorkspaces = false
}

/// A window manager that starts after the viewer's window is up (a session script that
/// starts the viewer first, a manager replaced or restarted) takes the window on as an
/// ordinary one; what only the manager can give is asked of it again. One that quits
/// leaves the window to place itself again.
extension XWindow {
    /// A window manager arrived after the window was shown: what the window asked for is
    /// asked again, both as the state property the manager reads when it takes the window
    /// on and as the requests it answers once it has, since either may come first.
    func windowManagerChanged() {
        guard !isEmbedded, isMapped else { return }
        guard display.hasWindowManager else {
            managerLeft()
            return
        }
        let r = managerRequests
        var names: [String] = []
        if r.fullscreen { names.append("_NET_WM_STATE_FULLSCREEN") }
        if r.floating { names += ["_NET_WM_STATE_ABOVE", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER"] }
        if r.onAllWorkspaces { names.append("_NET_WM_STATE_STICKY") }
        guard !names.isEmpty else { return }
        let atoms = names.map { UInt(display.atom($0)) }
        atoms.withUnsafeBytes { raw in
            _ = XChangeProperty(display.raw, id, display.atom("_NET_WM_STATE"), XA_ATOM, 32, PropModeReplace,
                                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(raw.count / MemoryLayout<UInt>.size))
        }
        // Sticky goes with the desktop request, which setting it sends.
        for name in names where name != "_NET_WM_STATE_STICKY" { sendState(1, name) }
        if r.onAllWorkspaces { setOnAllWorkspaces(true) }
    }

    /// The window manager quit. It hands its windows back as they were before it made
    /// them fullscreen (openbox put a 640x360 window back at its frame's place on a
    /// 1280x720 screen, the rest bare desktop), so a fullscreen window covers its monitor
    /// itself again, as it does when no manager ran at start, and a floating thumbnail is
    /// raised above the others.
    private func managerLeft() {
        if managerRequests.fullscreen {
            let m = monitor
            setGeometry(x: m.x, y: m.y, width: m.width, height: m.height)
        }
        if managerRequests.floating {
            XRaiseWindow(display.raw, id)
            XFlush(display.raw)
        }
    }
}
