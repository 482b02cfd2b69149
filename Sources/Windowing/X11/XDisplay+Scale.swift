import CX11

extension XDisplay {
    /// The desktop's interface scale (`detectInterfaceScale`), looked up on first use.
    public var desktopScale: InterfaceScale { cachedScale().scale }

    /// The line saying a bad `Xft.dpi` was ignored, once per connection; nil after that.
    public func takeScaleWarning() -> String? {
        let w = cachedScale().warning
        scaleDetectionStore?.warning = nil
        return w
    }

    private func cachedScale() -> (scale: InterfaceScale, source: String, warning: String?) {
        if let d = scaleDetectionStore { return d }
        let d = detectInterfaceScale()
        scaleDetectionStore = d
        return d
    }

    /// The interface scale the desktop asks for, and where it came from: `Xft.dpi` in the
    /// root window's `RESOURCE_MANAGER` (what `xrdb` and the desktops' settings set), else
    /// the resolution of the first monitor from its RandR physical size when that size is
    /// believable, else 1x. `warning` is one line for a user when `Xft.dpi` was set to
    /// something that is no resolution (then 1x).
    public func detectInterfaceScale() -> (scale: InterfaceScale, source: String, warning: String?) {
        switch InterfaceScale.resourceDPI(in: resourceManagerText() ?? "") {
        case .dpi(let d):
            return (InterfaceScale(dpi: d) ?? .one, "Xft.dpi \(d)", nil)
        case .invalid(let text):
            return (.one, "default", "ignoring the X resource Xft.dpi: '\(text)' is not a resolution in dots per inch; the interface is drawn at 1x")
        case .unset:
            break
        }
        var count: Int32 = 0
        if let list = XRRGetMonitors(raw, root, 1, &count), count > 0 {
            defer { XRRFreeMonitors(list) }
            let m = list[0]
            if let d = InterfaceScale.monitorDPI(widthPixels: Int(m.width), heightPixels: Int(m.height),
                                                 widthMM: Int(m.mwidth), heightMM: Int(m.mheight)),
               let s = InterfaceScale(dpi: d) {
                return (s, "monitor \(Int(d)) dpi", nil)
            }
        }
        return (.one, "default", nil)
    }

    /// The root window's `RESOURCE_MANAGER` text, read now (not Xlib's copy from the time
    /// the display was opened), at most 1 MiB.
    func resourceManagerText() -> String? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XDisplay.errorCode.store(0, ordering: .relaxed)
        let r = XGetWindowProperty(raw, root, atom("RESOURCE_MANAGER"), 0, 256 * 1024, 0, XA_STRING,
                                   &actualType, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard r == Success, format == 8, let data, count > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }
}
