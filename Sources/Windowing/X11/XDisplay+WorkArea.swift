import CX11

extension XDisplay {
    /// The part of `monitor` the window manager leaves free of panels and docks
    /// (`_NET_WORKAREA` of the current desktop), so a thumbnail never sits under a task bar.
    /// Nil without a window manager, or when what it publishes cannot be right: empty,
    /// outside the monitor, or larger than the screen.
    public func workArea(within monitor: Rect) -> Rect? {
        guard let area = windowProperty(root, "_NET_WORKAREA", type: XA_CARDINAL), area.count >= 4 else { return nil }
        let desktop = Int(windowProperty(root, "_NET_CURRENT_DESKTOP", type: XA_CARDINAL)?.first ?? 0)
        let i = desktop * 4 + 3 < area.count ? desktop * 4 : 0
        // CARDINALs are unsigned; a huge value is a negative coordinate written carelessly.
        let values = area[i..<i + 4].map { Int(Int32(truncatingIfNeeded: $0)) }
        let published = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
        let screen = screenSize
        guard !published.isEmpty, published.width <= screen.width, published.height <= screen.height else { return nil }
        let free = published.intersection(monitor)
        return free.isEmpty ? nil : free
    }
}

extension XDisplay {
    /// Where a window's top-left corner is on the screen; nil when the window is gone.
    public func rootOrigin(of window: UInt) -> (x: Int, y: Int)? {
        var rx: Int32 = 0, ry: Int32 = 0
        var child: UInt = 0
        guard XTranslateCoordinates(raw, window, root, 0, 0, &rx, &ry, &child) != 0 else { return nil }
        return (Int(rx), Int(ry))
    }
}
