import CX11

/// The window's icon (`_NET_WM_ICON`), which task bars, window switchers and title bars
/// show: the program's own picture instead of a generic one.
extension XWindow {
    /// Sets the icon from pictures of several sizes; the window manager picks the size it
    /// needs. Empty: nothing is set.
    public func setIcons(_ images: [RGBAImage]) {
        guard !images.isEmpty else { return }
        // Format-32 property data is an array of C longs (64 bits here), each holding one
        // 32-bit value: the width, the height, then ARGB pixels with straight alpha.
        var data: [UInt] = []
        for image in images {
            data.append(UInt(image.width))
            data.append(UInt(image.height))
            let p = image.pixels
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = UInt(p[i + 3])
                func straight(_ c: UInt8) -> UInt { a == 0 ? 0 : min(255, (UInt(c) * 255 + a / 2) / a) }
                data.append(a << 24 | straight(p[i]) << 16 | straight(p[i + 1]) << 8 | straight(p[i + 2]))
            }
        }
        data.withUnsafeBytes { raw in
            _ = XChangeProperty(display.raw, id, display.atom("_NET_WM_ICON"), XA_CARDINAL, 32, PropModeReplace,
                                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(data.count))
        }
        XFlush(display.raw)
    }
}
