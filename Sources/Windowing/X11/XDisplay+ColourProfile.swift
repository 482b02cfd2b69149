import CX11

/// The display's colour profile, for colour-managed pictures.
extension XDisplay {
    /// What `_ICC_PROFILE` held when it was read: a profile's bytes, or nothing.
    struct KnownProfile {
        let bytes: [UInt8]?
    }

    /// ICC profiles are a few KiB; a property larger than this is not a profile to use.
    static let largestColourProfile = 4 << 20

    /// `_ICC_PROFILE` on the root window of the default screen: the ICC bytes of the
    /// profile the desktop's colour daemon set for the monitor (the ICC Profiles in X
    /// Specification), or nil.
    func readColourProfile() -> [UInt8]? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XDisplay.errorCode.store(0, ordering: .relaxed)
        // The length is in 32-bit units.
        let r = XGetWindowProperty(raw, root, atom("_ICC_PROFILE"), 0, XDisplay.largestColourProfile / 4, 0,
                                   UInt(AnyPropertyType), &actualType, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard r == Success, format == 8, count > 0, after == 0, let data,
              XDisplay.errorCode.load(ordering: .relaxed) == 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(count)))
    }
}
