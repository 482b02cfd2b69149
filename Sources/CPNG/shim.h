#ifndef MEDIAVIEW_CPNG_SHIM_H
#define MEDIAVIEW_CPNG_SHIM_H

// libpng for PNG files an app ships (its own icons), loaded by CDelayLoad on the first call,
// where FFmpeg would load its codecs into a viewer that shows only photos decoded by its worker.
#include <png.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Reads a PNG file as straight-alpha R, G, B, A bytes with libpng's simplified API, which
// reports errors by its result rather than by longjmp (which must not cross Swift frames).
// The pixels (free() them) and the size, or NULL for an unreadable file, or a side of 0 or
// over `max_side`.
static inline uint8_t *mv_png_read_rgba(const char *path, uint32_t max_side, uint32_t *width, uint32_t *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) return NULL;
    if (image.width == 0 || image.height == 0 || image.width > max_side || image.height > max_side) {
        png_image_free(&image);
        return NULL;
    }
    image.format = PNG_FORMAT_RGBA;
    uint8_t *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (pixels == NULL) {
        png_image_free(&image);
        return NULL;
    }
    // Frees the image's state whether it succeeds or not.
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        free(pixels);
        return NULL;
    }
    *width = image.width;
    *height = image.height;
    return pixels;
}

#endif
