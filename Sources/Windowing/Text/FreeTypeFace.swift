import CFreeType

/// Owns one `FT_Library`, released in deinit.
///
/// FreeType libraries are not thread-safe, so each `FontRenderer` gets its own instead of
/// sharing a global one; faces keep a strong reference so the library outlives them.
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(FontError) {
        var lib: FT_Library?
        let err = FT_Init_FreeType(&lib)
        guard err == 0, let lib else { throw FontError.freeTypeFailed(operation: "FT_Init_FreeType", code: Int(err)) }
        handle = lib
    }

    deinit { FT_Done_FreeType(handle) }
}

/// Owns one `FT_Face` (a font file at one face index), released in deinit.
final class FreeTypeFace {
    let library: FreeTypeLibrary
    let face: FT_Face
    let path: String
    /// The size the face is currently set to, so switching sizes costs a call only on change.
    private(set) var pixelSize = 0

    init(library: FreeTypeLibrary, path: String, index: Int) throws(FontError) {
        var f: FT_Face?
        let err = FT_New_Face(library.handle, path, FT_Long(index), &f)
        guard err == 0, let f else { throw FontError.cannotOpen(path: path, code: Int(err)) }
        // A bitmap-only face cannot be set to arbitrary pixel sizes; refuse it up front
        // rather than fail on every glyph.
        guard f.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_Face(f)
            throw FontError.cannotOpen(path: path, code: -1)
        }
        self.library = library
        self.face = f
        self.path = path
    }

    deinit { FT_Done_Face(face) }

    /// Selects the nominal size in pixels (the em height) for following loads.
    func setPixelSize(_ size: Int) {
        guard size != pixelSize else { return }
        if FT_Set_Pixel_Sizes(face, 0, FT_UInt(size)) == 0 { pixelSize = size }
    }

    /// The face's glyph for a Unicode scalar; 0 when the font has none.
    func glyphIndex(for codepoint: UInt32) -> UInt32 {
        UInt32(FT_Get_Char_Index(face, FT_ULong(codepoint)))
    }

    /// Whether the face has a legacy kerning table FreeType can read.
    var hasKerning: Bool { face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0 }

    /// Horizontal kerning between two glyphs at the current size, in 26.6 pixels.
    func kerning(_ left: UInt32, _ right: UInt32) -> Int {
        var v = FT_Vector()
        guard FT_Get_Kerning(face, FT_UInt(left), FT_UInt(right), FT_UInt(FT_KERNING_DEFAULT.rawValue), &v) == 0 else {
            return 0
        }
        return Int(v.x)
    }

    /// Ascender at the current size in whole pixels (above the baseline, positive).
    var ascender: Int { ceil26(Int(face.pointee.size.pointee.metrics.ascender)) }
    /// Descender at the current size in whole pixels (below the baseline, positive).
    var descender: Int { ceil26(-Int(face.pointee.size.pointee.metrics.descender)) }
    /// Baseline-to-baseline distance at the current size in whole pixels.
    var lineHeight: Int { ceil26(Int(face.pointee.size.pointee.metrics.height)) }

    /// Loads and renders one glyph to an 8-bit coverage bitmap at the current size.
    ///
    /// Returns nil when FreeType cannot load it (a damaged glyph), so one bad glyph never
    /// stops a label from drawing.
    func render(glyphIndex: UInt32, codepoint: UInt32) -> Glyph? {
        // Light hinting: snaps vertically for crisp baselines and x-heights but keeps the
        // designed shapes and spacing, which looks right at the sizes labels use.
        guard cft_load_rendered_light(face, glyphIndex) == 0 else { return nil }
        let slot = face.pointee.glyph.pointee
        let bm = slot.bitmap
        let w = Int(bm.width), h = Int(bm.rows)
        var pixels = [UInt8](repeating: 0, count: w * h)
        if w > 0, h > 0, let src = bm.buffer {
            let pitch = Int(bm.pitch)
            let mono = bm.pixel_mode == UInt8(FT_PIXEL_MODE_MONO.rawValue)
            // A negative pitch means rows are stored bottom-up; start from the top row.
            let top = pitch < 0 ? src - pitch * (h - 1) : src
            for y in 0..<h {
                let line = top + y * pitch
                for x in 0..<w {
                    pixels[y * w + x] = mono ? ((line[x >> 3] >> (7 - UInt8(x & 7))) & 1) * 255 : line[x]
                }
            }
        }
        return Glyph(codepoint: codepoint, index: glyphIndex, width: w, height: h,
                     left: Int(slot.bitmap_left), top: Int(slot.bitmap_top),
                     advance: Int(slot.advance.x), coverage: pixels)
    }

    private func ceil26(_ v: Int) -> Int { (v + 63) >> 6 }
}
