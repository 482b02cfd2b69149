/// The EXIF orientation of a JPEG photo, as the turn that shows it upright.
///
/// Cameras and phones store the sensor's pixels as they come and say in EXIF's Orientation
/// tag (0x0112) how to turn them; FFmpeg 5.1 does not apply it to stills, so a portrait
/// photo would lie on its side. Only the rotation is applied: the mirrored orientations
/// (2, 4, 5, 7, rare outside front cameras) keep their turn but not their flip.
/// Every read is bounds-checked: the bytes are whatever the file holds.
public enum JPEGOrientation {
    /// Clockwise degrees (0, 90, 180, 270) for the JPEG file in `bytes`; 0 without EXIF.
    public static func rotation(ofJPEG bytes: UnsafeRawBufferPointer) -> Int {
        guard let orientation = orientation(ofJPEG: bytes) else { return 0 }
        switch orientation {
        case 3, 4: return 180
        case 6, 7: return 90
        case 5, 8: return 270
        default: return 0
        }
    }

    /// The raw Orientation value (1...8) of the first APP1 Exif segment, if any.
    public static func orientation(ofJPEG b: UnsafeRawBufferPointer) -> Int? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte before a marker
            if marker == 0xD9 || marker == 0xDA { return nil }  // end, or the picture data
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }  // no length
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let start = i + 4, end = i + 2 + length
            if marker == 0xE1, end - start >= 14,
               b[start] == 0x45, b[start + 1] == 0x78, b[start + 2] == 0x69, b[start + 3] == 0x66,  // "Exif"
               b[start + 4] == 0, b[start + 5] == 0 {
                return tiffOrientation(UnsafeRawBufferPointer(rebasing: b[(start + 6)..<end]))
            }
            i = end
        }
        return nil
    }

    /// Orientation from a TIFF structure (EXIF's container): IFD0's tag 0x0112.
    private static func tiffOrientation(_ t: UnsafeRawBufferPointer) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true   // "II"
        case (0x4D, 0x4D): little = false  // "MM"
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<count {
            let e = ifd + 2 + 12 * k
            guard let tag = u16(e), let type = u16(e + 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT as the standard says; LONG from some writers.
            let value = type == 4 ? u32(e + 8) : u16(e + 8)
            guard let v = value, (1...8).contains(v) else { return nil }
            return v
        }
        return nil
    }
}
