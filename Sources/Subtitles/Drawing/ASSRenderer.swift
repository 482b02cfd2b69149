import CASS
import Glibc

/// Owns an `ASS_Renderer`: turns the events of an `ASSTrack` due at a time into coverage
/// masks for a frame of a given size.
package final class ASSRenderer {
    let raw: OpaquePointer
    /// Keeps the library alive as long as the renderer that uses it.
    private let library: ASSLibrary
    private var size = (width: 0, height: 0)
    private var fontScale = 1.0

    /// Nil when libass cannot make a renderer.
    package init?(library: ASSLibrary) {
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
    package func setSize(width: Int, height: Int) {
        guard size != (width, height) else { return }
        size = (width, height)
        ass_set_frame_size(raw, Int32(width), Int32(height))
        ass_set_storage_size(raw, Int32(width), Int32(height))
    }

    /// At most this many events are drawn at once: libass places each line against every
    /// other, and 20,000 lines due together kept the window from answering for a minute.
    static let mostOnScreen = 64
    /// Seconds one frame's subtitles may take; a frame over it halves the events drawn at
    /// once from then on (down to `fewestOnScreen`), so a script too heavy to draw gives
    /// way to the video. Generous, since the first frame also loads the fonts.
    static let frameBudget = 0.1
    /// What slow frames leave at least: more lines than an ordinary script shows at once.
    static let fewestOnScreen = 16
    /// Events drawn at once now: `mostOnScreen`, less after slow frames.
    private(set) var onScreen = ASSRenderer.mostOnScreen

    /// Draws text `scale` times the size the script gives it (a small picture's lines stay readable).
    func setFontScale(_ scale: Double) {
        guard scale.isFinite, scale > 0, scale != fontScale else { return }
        fontScale = scale
        ass_set_font_scale(raw, scale)
    }

    /// The images of `track` due at `milliseconds`, valid until the next call; `changed`, when
    /// given, is set to whether they differ from the last call's.
    package func render(_ track: ASSTrack, at milliseconds: Int64, changed: UnsafeMutablePointer<Bool>? = nil) -> UnsafeMutablePointer<ASS_Image>? {
        let hidden = track.hide(beyond: onScreen, at: milliseconds)
        defer { track.restore(hidden) }
        let began = Self.seconds()
        var change: Int32 = 0
        let images = ass_render_frame(raw, track.raw, milliseconds, &change)
        // Events hidden for this frame alone may make libass call it unchanged when it is not.
        changed?.pointee = change != 0 || !hidden.isEmpty
        if Self.seconds() - began > Self.frameBudget { onScreen = max(Self.fewestOnScreen, onScreen / 2) }
        return images
    }

    /// Hands `body` the images from `first` on while their area adds up to at most four
    /// frames' worth; the rest of a frame's images are left out (the budget in pixels).
    func eachImage(_ first: UnsafeMutablePointer<ASS_Image>?, _ body: (ASS_Image) -> Void) {
        var image = first
        var area = 0
        let budget = 4 * max(1, size.width) * max(1, size.height)
        while let i = image {
            area += Int(max(0, i.pointee.w)) * Int(max(0, i.pointee.h))
            if area > budget { return }
            body(i.pointee)
            image = i.pointee.next
        }
    }

    private static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
