#ifndef MEDIAVIEW_CRSVG_SHIM_H
#define MEDIAVIEW_CRSVG_SHIM_H

// librsvg and cairo: SVG drawn at the size it is shown, and again when zoomed, where
// FFmpeg's librsvg decoder gives one bitmap of a fixed size.
//
// librsvg's pkg-config flags carry -pthread, which SwiftPM refuses (as libpulse's), and its
// header needs gdk-pixbuf's and glib's include paths; so the handful of its functions the
// viewer calls are declared here as librsvg 2.52+ documents them (a stable C ABI), with
// cairo's own header for the drawing surface.
#include <stddef.h>
#include <stdint.h>
#include <cairo/cairo.h>

// GLib's error: the domain, a code and the sentence, which the viewer passes on.
typedef struct mv_gerror {
    uint32_t domain;
    int code;
    char *message;
} mv_gerror;

typedef struct _RsvgHandle RsvgHandle;

// A viewport rectangle, as librsvg's RsvgRectangle.
typedef struct mv_rsvg_rect {
    double x, y, width, height;
} mv_rsvg_rect;

// Parses SVG (or gzip-compressed SVGZ) bytes with librsvg's built-in limits on elements,
// references and nesting; NULL and an error on failure.
RsvgHandle *rsvg_handle_new_from_data(const uint8_t *data, size_t data_len, mv_gerror **error);
// The document's size in pixels when it states one in absolute units (else 0: only a viewBox).
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);
// Whether width, height and viewBox are given, and their values (for SVGs sized only by a viewBox).
typedef struct mv_rsvg_length { double length; int unit; } mv_rsvg_length;
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, int *out_has_width, mv_rsvg_length *out_width,
                                          int *out_has_height, mv_rsvg_length *out_height,
                                          int *out_has_viewbox, mv_rsvg_rect *out_viewbox);
// Draws the whole document fitted into `viewport` on a cairo context.
int rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const mv_rsvg_rect *viewport, mv_gerror **error);
// The handle is a GObject: one unref frees it.
void g_object_unref(void *object);
void g_error_free(mv_gerror *error);

#endif
