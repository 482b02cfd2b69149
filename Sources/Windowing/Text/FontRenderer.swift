import CFreeType

/// Why a font could not be opened.
public enum FontError: Error, Equatable, CustomStringConvertible {
    /// fontconfig found no usable font for the family (or, when an exact family was
    /// required, only a substitute).
    case familyNotFound(String)
    /// The font file is missing, unreadable, not a font, or not scalable.
    case cannotOpen(path: String, code: Int)
    /// The pixel size is not in 1...1024.
    case invalidSize(Int)
    /// A FreeType call failed for another reason.
    case freeTypeFailed(operation: String, code: Int)

    public var description: String {
        switch self {
        case .familyNotFound(let f): "no installed font matches the family \"\(f)\" (see fc-list)"
        case .cannotOpen(let p, let c): "cannot open font file \(p) (FreeType error \(c))"
        case .invalidSize(let s): "font size \(s) px is out of range (1...1024)"
        case .freeTypeFailed(let op, let c): "\(op) failed with FreeType error \(c)"
        }
    }
}

/// Anti-aliased UTF-8 text in one font and size, rasterised by FreeType, font chosen by
/// fontconfig.
///
/// FreeType with fontconfig rather than the X server's core fonts or Xft: core fonts are
/// bitmaps without anti-aliasing and mostly without Unicode coverage; Xft would tie text to
/// XRender pictures, while overlays are drawn into our own SHM pixels before the blit. So
/// we rasterise to coverage bitmaps ourselves and blend them with the `Canvas`.
///
/// Not thread-safe (FreeType is not): use one renderer from one thread at a time. It is
/// deliberately not `Sendable`, so the compiler enforces that.
public final class FontRenderer {
    /// The font file in use.
    public let path: String
    /// The family name of that file (what fontconfig matched, not necessarily what was asked).
    public let family: String
    /// Nominal size in pixels (the em height). Changing it keeps already cached glyphs.
    public var pixelSize: Int {
        didSet {
            pixelSize = min(1024, max(1, pixelSize))
            primary.setPixelSize(pixelSize)
        }
    }

    private let primary: FreeTypeFace
    private let cache: GlyphCache
    /// U+2026, what `truncated` appends.
    static let ellipsis = "\u{2026}"

    /// Opens the font fontconfig picks for `family` (a family name or a generic alias like
    /// "sans-serif", "serif", "monospace").
    ///
    /// - Parameter requireExactFamily: when true, throws `FontError.familyNotFound` unless an
    ///   installed font really has that family name; when false (the default) fontconfig's
    ///   substitute is accepted, as other desktop programs do.
    public init(family: String = "sans-serif", pixelSize: Int, bold: Bool = false,
                requireExactFamily: Bool = false) throws(FontError) {
        guard (1...1024).contains(pixelSize) else { throw FontError.invalidSize(pixelSize) }
        let match = try FontLocator.match(family: family, bold: bold, requireFamily: requireExactFamily)
        let face = try FreeTypeFace(library: FreeTypeLibrary(), path: match.path, index: match.index)
        self.path = match.path
        self.family = match.families.first ?? family
        self.pixelSize = pixelSize
        self.primary = face
        self.cache = GlyphCache(primary: face, family: family, bold: bold, allowFallback: true)
        face.setPixelSize(pixelSize)
    }

    /// Opens a font file directly (a TTF/OTF shipped in `assets/`, say); characters it
    /// lacks still fall back to installed fonts.
    public init(path: String, faceIndex: Int = 0, pixelSize: Int) throws(FontError) {
        guard (1...1024).contains(pixelSize) else { throw FontError.invalidSize(pixelSize) }
        let face = try FreeTypeFace(library: FreeTypeLibrary(), path: path, index: faceIndex)
        self.path = path
        self.family = face.face.pointee.family_name.map { String(cString: $0) } ?? path
        self.pixelSize = pixelSize
        self.primary = face
        self.cache = GlyphCache(primary: face, family: self.family, bold: false, allowFallback: true)
        face.setPixelSize(pixelSize)
    }

    /// The font's ascent above the baseline at the current size, in pixels.
    public var ascent: Int { primary.setPixelSize(pixelSize); return primary.ascender }
    /// The font's descent below the baseline at the current size, in pixels (positive).
    public var descent: Int { primary.setPixelSize(pixelSize); return primary.descender }
    /// Recommended distance between baselines of consecutive lines, in pixels.
    public var lineHeight: Int { primary.setPixelSize(pixelSize); return primary.lineHeight }

    /// The box `text` occupies when drawn with its pen starting at x = 0 on the baseline.
    ///
    /// `width` covers both the advances and any ink overhanging the last advance (italic
    /// tails), so right-aligned text does not stick out. `ascent`/`descent` are at least
    /// the font's, so labels of the same font line up whatever letters they hold, and grow
    /// for taller ink (stacked accents). Drawn pixels stay within
    /// `x ..< x + width, baseline - ascent ..< baseline + descent`, except for ink a first
    /// glyph puts left of its pen, which Latin, Greek and Cyrillic text fonts do not.
    public func measure(_ text: String) -> (width: Int, ascent: Int, descent: Int) {
        var right = 0, asc = ascent, desc = descent
        let advance = layout(text) { g, penX in
            if g.width > 0 { right = max(right, penX + g.left + g.width) }
            if g.height > 0 {
                asc = max(asc, g.top)
                desc = max(desc, g.height - g.top)
            }
        }
        return (max(advance, right), asc, desc)
    }

    /// Draws `text` with its pen starting at `x` and its baseline at `y`, and returns the
    /// pen advance in pixels.
    ///
    /// - Parameter shadow: if given, the text is first drawn in this colour one pixel right
    ///   and down, which keeps white labels readable over bright video.
    @discardableResult
    public func draw(_ text: String, at x: Int, baseline y: Int, color: Color, shadow: Color? = nil,
                     on canvas: Canvas) -> Int {
        if let shadow { draw(text, at: x + 1, baseline: y + 1, color: shadow, shadow: nil, on: canvas) }
        // Skip the whole string when it cannot reach the drawable area vertically.
        let area = canvas.drawableRect
        guard y + 2 * pixelSize > area.y, y - 2 * pixelSize < area.maxY else { return measure(text).width }
        return layout(text) { g, penX in
            guard g.width > 0, g.height > 0 else { return }
            g.coverage.withUnsafeBufferPointer { buf in
                guard let base = buf.baseAddress else { return }
                canvas.blendMask(base, width: g.width, height: g.height, pitch: g.width,
                                 x: x + penX + g.left, y: y - g.top, color: color)
            }
        }
    }

    /// `text` unchanged if it fits in `width` pixels, else its longest prefix (whole
    /// characters, trailing spaces dropped) followed by "…" that fits; "" if not even the
    /// ellipsis fits.
    public func truncated(_ text: String, toWidth width: Int) -> String {
        if measure(text).width <= width { return text }
        if measure(FontRenderer.ellipsis).width > width { return "" }
        let chars = Array(text)
        func candidate(_ n: Int) -> String {
            var s = String(chars[0..<n])
            while let last = s.last, last.isWhitespace { s.removeLast() }
            return s + FontRenderer.ellipsis
        }
        // Width grows with the prefix length (up to kerning noise), so binary search for
        // the longest prefix that fits.
        var lo = 0, hi = chars.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if measure(candidate(mid)).width <= width { lo = mid } else { hi = mid - 1 }
        }
        return candidate(lo)
    }

    /// Walks the glyphs of `text`, calling `body` with each glyph and its pen x in whole
    /// pixels, and returns the total advance in whole pixels.
    ///
    /// The pen moves in 26.6 fixed point so kerning and fractional advances do not
    /// accumulate rounding error along a long title.
    private func layout(_ text: String, _ body: (Glyph, Int) -> Void) -> Int {
        let size = pixelSize
        var pen = 0
        var previous: Glyph?
        for scalar in text.unicodeScalars {
            let v = scalar.value
            // Control characters have no ink and no advance; a tab reads best as a space.
            let cp: UInt32 = v == 9 ? 32 : v
            if cp < 32 || (0x7F..<0xA0).contains(cp) { continue }
            let g = cache.glyph(for: cp, size: size)
            if let p = previous { pen += cache.kerning(p, g, size: size) }
            body(g, (pen + 32) >> 6)
            pen += g.advance
            previous = g
        }
        return (pen + 32) >> 6
    }
}
