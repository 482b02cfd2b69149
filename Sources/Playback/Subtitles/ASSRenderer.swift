import CASS

/// Owns an `ASS_Renderer`: turns the events of an `ASSTrack` due at a time into coverage
/// masks for a frame of a given size.
final class ASSRenderer {
    let raw: OpaquePointer
    /// Keeps the library alive as long as the renderer that uses it.
    private let library: ASSLibrary
    private var size = (width: 0, height: 0)
    private var fontScale = 1.0

    /// Nil when libass cannot make a renderer.
    init?(library: ASSLibrary) {
        guard let r = ass_renderer_init(library.raw) else { return nil }
        raw = r
        self.library = library
        // Fonts through fontconfig, as the rest of the viewer's text; sans-serif when a
        // script names a font the system lacks.
        ass_set_fonts(r, nil, "sans-serif", Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
        // Bounded caches: a script with thousands of distinct lines or huge glyphs cannot
        // make the renderer grow without end (glyphs, then MiB of bitmaps).
        ass_set_cache_limits(r, 1000, 32)
    }

    deinit { ass_renderer_done(raw) }

    /// Sets the frame the subtitles are drawn for: the video's rectangle on screen.
    func setSize(width: Int, height: Int) {
        guard size != (width, height) else { return }
        size = (width, height)
        ass_set_frame_size(raw, Int32(width), Int32(height))
        ass_set_storage_size(raw, Int32(width), Int32(height))
    }

    /// Draws text `scale` times the size the script gives it (a small picture's lines stay readable).
    func setFontScale(_ scale: Double) {
        guard scale.isFinite, scale > 0, scale != fontScale else { return }
        fontScale = scale
        ass_set_font_scale(raw, scale)
    }

    /// The images of `track` due at `milliseconds`, valid until the next call.
    func render(_ track: ASSTrack, at milliseconds: Int64) -> UnsafeMutablePointer<ASS_Image>? {
        ass_render_frame(raw, track.raw, milliseconds, nil)
    }
}
