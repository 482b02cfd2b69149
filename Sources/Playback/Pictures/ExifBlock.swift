/// The EXIF block of a JPEG photo (the TIFF structure in its first APP1 "Exif" segment),
/// read where it lies in the file's bytes.
///
/// What a photo says of itself is read from here: how to turn it upright, the small JPEG a
/// camera stores beside the picture for a quick preview, and the facts the info panel and
/// the sort by date taken show (`ExifBlock+Values`). The bytes are whatever the file holds,
/// so every read is bounds-checked against the segment, and an offset or a count that
/// points outside it makes the value absent, never a read past it. Only the IFDs these
/// need are walked; the makers' notes and the rest are left alone (a general EXIF parser
/// would parse them all, for every file of a gallery, to give back these few values).
struct ExifBlock {
    /// The TIFF structure: from its byte-order mark to the end of the APP1 segment.
    let tiff: UnsafeRawBufferPointer
    /// Where `tiff` starts in the JPEG file's bytes.
    let offsetInFile: Int
    /// "II" (Intel) rather than "MM" (Motorola) byte order.
    let little: Bool

    /// The EXIF block of the JPEG file in `b` (or of its first part), nil when it has none
    /// before the picture data or its TIFF header is damaged.
    init?(jpeg b: UnsafeRawBufferPointer) {
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
                self.init(tiff: UnsafeRawBufferPointer(rebasing: b[(start + 6)..<end]), at: start + 6)
                return
            }
            i = end
        }
        return nil
    }

    /// The TIFF structure in `t`, found at `offset` in its file.
    init?(tiff t: UnsafeRawBufferPointer, at offset: Int) {
        guard t.count >= 8 else { return nil }
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true   // "II"
        case (0x4D, 0x4D): little = false  // "MM"
        default: return nil
        }
        tiff = t
        offsetInFile = offset
        guard u16(2) == 42 else { return nil }
    }

    /// The 16-bit number at `o`, nil past the end.
    func u16(_ o: Int) -> Int? {
        guard o >= 0, o + 2 <= tiff.count else { return nil }
        return little ? Int(tiff[o]) | Int(tiff[o + 1]) << 8 : Int(tiff[o]) << 8 | Int(tiff[o + 1])
    }

    /// The 32-bit number at `o`, nil past the end.
    func u32(_ o: Int) -> Int? {
        guard let a = u16(o), let b = u16(o + 2) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }

    /// Where IFD0 (the main picture's tags) starts.
    var ifd0: Int? { u32(4) }

    /// Where the IFD after the one at `ifd` starts: IFD1, the thumbnail's, after IFD0.
    func next(after ifd: Int) -> Int? {
        guard let count = u16(ifd), let link = u32(ifd + 2 + 12 * count), link != 0, link != ifd else { return nil }
        return link
    }

    /// The value of `tag` in the IFD at `ifd`, when it is one SHORT or LONG (what every tag
    /// read here is; some writers store a SHORT one as LONG).
    func value(of tag: Int, inIFDAt ifd: Int) -> Int? {
        guard let count = u16(ifd) else { return nil }
        for k in 0..<count {
            let e = ifd + 2 + 12 * k
            guard let t = u16(e), let type = u16(e + 2) else { return nil }
            guard t == tag else { continue }
            switch type {
            case 3: return u16(e + 8)
            case 4: return u32(e + 8)
            default: return nil
            }
        }
        return nil
    }
}
