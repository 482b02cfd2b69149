/// One rendered glyph: its coverage bitmap and where it sits relative to the pen.
struct Glyph {
    /// The Unicode scalar it was asked for (the replacement character's glyph keeps the
    /// original scalar here, so cache hits stay keyed by what the text contains).
    var codepoint: UInt32
    /// Glyph index in its face, for kerning.
    var index: UInt32
    var width: Int
    var height: Int
    /// Offset from the pen position to the bitmap's left edge, in pixels.
    var left: Int
    /// Offset from the baseline up to the bitmap's top edge, in pixels.
    var top: Int
    /// Pen advance in 26.6 fixed point.
    var advance: Int
    /// Which of the cache's faces it came from (0 is the main font); kerning only applies
    /// between glyphs of the same face.
    var face: Int = 0
    /// `width * height` bytes of coverage, rows top to bottom, no padding.
    var coverage: [UInt8]
}

/// Rendered glyphs keyed by (codepoint, pixel size), with per-character font fallback.
///
/// Labels are redrawn every frame, so rasterising once and blending cached bitmaps is what
/// keeps text cheap. Characters the main font lacks are looked up through fontconfig once
/// per codepoint and drawn from whichever installed font has them; if none has them, the
/// replacement character (U+FFFD) or the font's "missing glyph" box stands in, so a label
/// never silently loses characters.
final class GlyphCache {
    struct Key: Hashable {
        var codepoint: UInt32
        var size: Int
    }

    /// Upper bound on cached glyphs; a label with huge CJK text must not grow memory forever.
    static let capacity = 4096
    /// Upper bound on fallback fonts opened, each holds a file mapped in memory.
    static let maxFallbackFaces = 8

    private(set) var faces: [FreeTypeFace]
    private let family: String
    private let bold: Bool
    private let allowFallback: Bool
    private var glyphs: [Key: Glyph] = [:]
    /// Which face draws a codepoint the main face lacks; -1 when no installed font has it.
    private var fallbackFace: [UInt32: Int] = [:]

    init(primary: FreeTypeFace, family: String, bold: Bool, allowFallback: Bool) {
        self.faces = [primary]
        self.family = family
        self.bold = bold
        self.allowFallback = allowFallback
    }

    /// The glyph for `codepoint` at `size` pixels, rendering it on first use.
    func glyph(for codepoint: UInt32, size: Int) -> Glyph {
        let key = Key(codepoint: codepoint, size: size)
        if let g = glyphs[key] { return g }
        if glyphs.count >= GlyphCache.capacity { glyphs.removeAll(keepingCapacity: true) }
        let g = render(codepoint, size: size)
        glyphs[key] = g
        return g
    }

    /// Kerning between two glyphs in 26.6 pixels; 0 across faces or without a kerning table.
    func kerning(_ left: Glyph, _ right: Glyph, size: Int) -> Int {
        guard left.face == right.face else { return 0 }
        let face = faces[left.face]
        guard face.hasKerning else { return 0 }
        face.setPixelSize(size)
        return face.kerning(left.index, right.index)
    }

    private func render(_ codepoint: UInt32, size: Int) -> Glyph {
        let (slot, index) = resolve(codepoint)
        let face = faces[slot]
        face.setPixelSize(size)
        if var g = face.render(glyphIndex: index, codepoint: codepoint) {
            g.face = slot
            return g
        }
        // Unrenderable: an empty glyph with a plausible advance keeps the layout stable.
        return Glyph(codepoint: codepoint, index: 0, width: 0, height: 0, left: 0, top: 0,
                     advance: size * 32, face: slot, coverage: [])
    }

    /// Chooses the face and glyph index that draw `codepoint`.
    private func resolve(_ codepoint: UInt32) -> (face: Int, index: UInt32) {
        let main = faces[0].glyphIndex(for: codepoint)
        if main != 0 { return (0, main) }
        if let slot = fallbackSlot(for: codepoint) {
            return (slot, faces[slot].glyphIndex(for: codepoint))
        }
        let replacement: UInt32 = 0xFFFD
        if codepoint != replacement {
            let r = faces[0].glyphIndex(for: replacement)
            if r != 0 { return (0, r) }
            if let slot = fallbackSlot(for: replacement) {
                return (slot, faces[slot].glyphIndex(for: replacement))
            }
        }
        return (0, 0)  // the font's .notdef box
    }

    /// The fallback face holding `codepoint`, opening it through fontconfig the first time.
    private func fallbackSlot(for codepoint: UInt32) -> Int? {
        guard allowFallback else { return nil }
        if let known = fallbackFace[codepoint] { return known >= 0 ? known : nil }
        var slot = -1
        // A face already open may have it (most symbols come from one or two fonts).
        if let open = faces.indices.dropFirst().first(where: { faces[$0].glyphIndex(for: codepoint) != 0 }) {
            slot = open
        } else if let m = FontLocator.match(covering: codepoint, family: family, bold: bold) {
            if let open = faces.firstIndex(where: { $0.path == m.path }) {
                if faces[open].glyphIndex(for: codepoint) != 0 { slot = open }
            } else if faces.count <= GlyphCache.maxFallbackFaces,
                      let face = try? FreeTypeFace(library: faces[0].library, path: m.path, index: m.index),
                      face.glyphIndex(for: codepoint) != 0 {
                faces.append(face)
                slot = faces.count - 1
            }
        }
        fallbackFace[codepoint] = slot
        return slot >= 0 ? slot : nil
    }
}
