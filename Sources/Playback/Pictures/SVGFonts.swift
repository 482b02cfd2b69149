import CRSVG

/// The fonts an SVG's text is most often drawn in, opened once and held for the life of
/// the process: the sandboxed worker may not open a font file after its warm-up.
///
/// Cairo opens a font file when a size of it is first drawn and closes it when no font
/// of that file is left; librsvg's fonts go when a picture is done. A font held here keeps
/// its file open in cairo (and so usable at any size) without opening it again.
public enum SVGFonts {
    /// The generic families upright and bold, sans italics, and librsvg's default family
    /// (text with no font-family is Times New Roman): nine files, within the ten cairo keeps
    /// open at once.
    static let held: [(family: String, slant: cairo_font_slant_t, weight: cairo_font_weight_t)] = [
        ("sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL),
        ("sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD),
        ("sans-serif", CAIRO_FONT_SLANT_ITALIC, CAIRO_FONT_WEIGHT_NORMAL),
        ("sans-serif", CAIRO_FONT_SLANT_ITALIC, CAIRO_FONT_WEIGHT_BOLD),
        ("serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL),
        ("serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD),
        ("monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL),
        ("Times New Roman", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL),
        ("Times New Roman", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD),
    ]

    /// Opens the held fonts; how many cairo could open. Their scaled fonts are never
    /// destroyed, on purpose: they are what keeps the files open.
    @discardableResult
    public static func holdOpen() -> Int {
        var opened = 0
        var size = cairo_matrix_t(), identity = cairo_matrix_t()
        cairo_matrix_init_scale(&size, 12, 12)
        cairo_matrix_init_identity(&identity)
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        for font in held {
            guard let face = cairo_toy_font_face_create(font.family, font.slant, font.weight) else { continue }
            let scaled = cairo_scaled_font_create(face, &size, &identity, options)
            cairo_font_face_destroy(face)
            guard let scaled, cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS else { continue }
            var extents = cairo_text_extents_t()
            cairo_scaled_font_text_extents(scaled, "Ag", &extents)
            opened += 1
        }
        return opened
    }
}
