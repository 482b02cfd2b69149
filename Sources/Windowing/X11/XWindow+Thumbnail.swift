import CX11

/// What a floating thumbnail tells the window manager: a small utility window on every
/// workspace, above the others, out of the task bar, resizable only with its aspect.
extension XWindow {
    /// Marks the window as a floating utility (tiling window managers float those) or as an
    /// ordinary one again. Window managers read the type when they manage a window; it is
    /// also set before the first map so a thumbnail that starts small floats at once.
    public func setUtilityType(_ on: Bool) {
        var type = UInt(display.atom(on ? "_NET_WM_WINDOW_TYPE_UTILITY" : "_NET_WM_WINDOW_TYPE_NORMAL"))
        withUnsafeBytes(of: &type) { raw in
            _ = XChangeProperty(display.raw, id, display.atom("_NET_WM_WINDOW_TYPE"), XA_ATOM, 32, PropModeReplace,
                                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        XFlush(display.raw)
    }

    /// Shows the window on every workspace (`_NET_WM_STATE_STICKY`, and the desktop
    /// 0xFFFFFFFF that EWMH means by "all"), or on the current one only.
    public func setOnAllWorkspaces(_ on: Bool) {
        managerRequests.onAllWorkspaces = on
        guard display.hasWindowManager else { return }
        sendState(on ? 1 : 0, "_NET_WM_STATE_STICKY")
        var ev = XEvent()
        ev.xclient.type = ClientMessage
        ev.xclient.window = id
        ev.xclient.message_type = display.atom("_NET_WM_DESKTOP")
        ev.xclient.format = 32
        ev.xclient.data.l.0 = on ? Int(UInt32.max) : Int(currentDesktop)
        ev.xclient.data.l.1 = 1
        XSendEvent(display.raw, display.root, 0, Int(SubstructureRedirectMask | SubstructureNotifyMask), &ev)
        XFlush(display.raw)
    }

    private var currentDesktop: UInt {
        display.windowProperty(display.root, "_NET_CURRENT_DESKTOP", type: XA_CARDINAL)?.first ?? 0
    }

    /// `WM_NORMAL_HINTS` for a thumbnail: width between `minWidth` and `maxWidth` and the
    /// height following the aspect (width:height); nil lifts every limit.
    public func setSizeHints(aspect: (width: Int, height: Int)?, minWidth: Int = 1, maxWidth: Int = 32767) {
        guard let hints = XAllocSizeHints() else { return }
        defer { XFree(hints) }
        if let a = aspect, a.width > 0, a.height > 0 {
            hints.pointee.flags = Int(PAspect | PMinSize | PMaxSize)
            hints.pointee.min_aspect.x = Int32(a.width)
            hints.pointee.min_aspect.y = Int32(a.height)
            hints.pointee.max_aspect = hints.pointee.min_aspect
            hints.pointee.min_width = Int32(minWidth)
            hints.pointee.min_height = Int32(max(1, (minWidth * a.height + a.width / 2) / a.width))
            hints.pointee.max_width = Int32(maxWidth)
            hints.pointee.max_height = Int32(max(1, (maxWidth * a.height + a.width / 2) / a.width))
        } else {
            hints.pointee.flags = 0
        }
        XSetWMNormalHints(display.raw, id, hints)
        XFlush(display.raw)
    }
}
