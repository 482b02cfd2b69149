// A row reader's shared part: opening a PNG or TIFF by its format, its rows as RGBA, cleanup.

#include "crows_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void crows_failed(crows_reader *r, crows_status status, const char *text) {
    r->status = status;
    snprintf(r->message, sizeof r->message, "%s", text);
}

// One row of `samples` grey or RGB samples (with alpha when 2 or 4) of `bits` bits into RGBA.
void crows_to_rgba(const uint8_t *s, int n, int bits, int width, uint8_t *dst) {
    int wide = bits == 16;
    // 8-bit RGB, the layout of nearly every large picture, in a loop the compiler vectorises.
    if (!wide && n == 3) {
        for (int x = 0; x < width; x++) {
            dst[x * 4] = s[x * 3];
            dst[x * 4 + 1] = s[x * 3 + 1];
            dst[x * 4 + 2] = s[x * 3 + 2];
            dst[x * 4 + 3] = 0xFF;
        }
        return;
    }
    if (!wide && n == 4) {
        memcpy(dst, s, (size_t)width * 4);
        return;
    }
    for (int x = 0; x < width; x++) {
        uint8_t v[4];
        for (int c = 0; c < n; c++) {
            // 16 bits: the high byte, in the machine's order after libtiff's swapping.
            v[c] = wide ? (uint8_t)(((const uint16_t *)(const void *)s)[x * n + c] >> 8) : s[x * n + c];
        }
        uint8_t *d = dst + x * 4;
        if (n <= 2) {
            d[0] = d[1] = d[2] = v[0];
            d[3] = n == 2 ? v[1] : 0xFF;
        } else {
            d[0] = v[0];
            d[1] = v[1];
            d[2] = v[2];
            d[3] = n == 4 ? v[3] : 0xFF;
        }
    }
}

crows_reader *crows_open(int fd, crows_format format) {
    crows_reader *r = calloc(1, sizeof *r);
    if (r == NULL) return NULL;
    r->fd = fd;
    r->format = format;
    if (format == CROWS_PNG) crows_open_png(r);
    else if (format == CROWS_TIFF) crows_open_tiff(r);
    else crows_failed(r, CROWS_UNSUPPORTED, "not a PNG or TIFF file");
    if (r->status == CROWS_OK && (r->width <= 0 || r->height <= 0)) crows_failed(r, CROWS_FAILED, "the picture has no size");
    return r;
}

crows_status crows_open_status(const crows_reader *r) { return r->status; }
int crows_width(const crows_reader *r) { return r->width; }
int crows_height(const crows_reader *r) { return r->height; }
const char *crows_message(const crows_reader *r) { return r->message; }

crows_status crows_read(crows_reader *r, uint8_t *dst, int rows) {
    if (r->status != CROWS_OK) return r->status;
    if (rows <= 0 || rows > r->height - r->next_row) {
        crows_failed(r, CROWS_FAILED, "rows asked for past the end of the picture");
        return CROWS_FAILED;
    }
    return r->format == CROWS_PNG ? crows_read_png(r, dst, rows) : crows_read_tiff(r, dst, rows);
}

void crows_free(crows_reader *r) {
    if (r == NULL) return;
    crows_free_png(r);
    crows_free_tiff(r);
    inflated_free(r->fast);
    free(r);
}
