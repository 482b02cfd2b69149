#ifndef MEDIAVIEW_DELAYLOAD_H
#define MEDIAVIEW_DELAYLOAD_H

// The codec and picture libraries (FFmpeg, libjpeg-turbo, libwebp, Little CMS, libavif,
// libheif, libjxl, librsvg with cairo and GLib, libass, Rubber Band, libtiff, libpng, ISA-L) are not
// linked into the programs: each is loaded the first time one of its functions is called. A
// viewer showing a photo decoded by its worker then never maps them, and starts without the
// dynamic linker's work on some 130 libraries it would not use. FreeType and fontconfig, for
// the interface's text, load the same way: until a line of text is drawn the viewer maps no
// font library, nor libpng, which FreeType links for colour glyphs.

/// The libraries loaded on first use, in the order of `delayload_library_name`.
typedef enum delayload_library {
    DELAYLOAD_AVFORMAT,
    DELAYLOAD_AVCODEC,
    DELAYLOAD_AVUTIL,
    DELAYLOAD_SWSCALE,
    DELAYLOAD_SWRESAMPLE,
    DELAYLOAD_WEBPDEMUX,
    DELAYLOAD_WEBP,
    DELAYLOAD_JPEG,
    DELAYLOAD_LCMS2,
    DELAYLOAD_AVIF,
    DELAYLOAD_HEIF,
    DELAYLOAD_JXL,
    DELAYLOAD_RSVG,
    DELAYLOAD_GOBJECT,
    DELAYLOAD_GLIB,
    DELAYLOAD_CAIRO,
    DELAYLOAD_ASS,
    DELAYLOAD_RUBBERBAND,
    DELAYLOAD_PULSE,
    DELAYLOAD_SECCOMP,
    DELAYLOAD_TIFF,
    DELAYLOAD_PNG,
    DELAYLOAD_FREETYPE,
    DELAYLOAD_FONTCONFIG,
    DELAYLOAD_ISAL,
    DELAYLOAD_LIBRARY_COUNT,
} delayload_library;

/// Loads `library` and binds all of its functions now: a sandboxed worker does this before
/// its file system is closed. NULL when done, else the dynamic loader's sentence.
const char *delayload_load(delayload_library library);

/// FFmpeg's log level (AV_LOG_QUIET unless set), applied the moment libavutil loads, so
/// whichever call loads it already runs at that level; at once if it is loaded.
void delayload_set_ffmpeg_log_level(int level);

#endif
