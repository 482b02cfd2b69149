import CASS

/// Owns an `ASS_Library`: libass's fonts and settings, shared by its renderer and tracks.
package final class ASSLibrary {
    let raw: OpaquePointer

    /// Nil when libass cannot start (out of memory).
    package init?() {
        guard let l = ass_library_init() else { return nil }
        raw = l
        // The viewer says in one line of its own what is wrong with a subtitle file.
        cass_silence(l)
        // Fonts attached to Matroska files are not read; fontconfig's fonts are used.
        ass_set_extract_fonts(l, 0)
    }

    deinit { ass_library_done(raw) }
}
