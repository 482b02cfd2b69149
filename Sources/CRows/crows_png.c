#define _GNU_SOURCE
#include "crows_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// libpng asks for a few bytes at a time (chunk headers, 8 KiB of IDAT): reading the file a
// MiB at a time keeps a 300 MB scan to a few hundred system calls.
enum { crows_buffer_size = 1 << 20 };

// The next `length` bytes of the file; the end of the file before the picture's is an error.
static void png_read_fd(png_structp png, png_bytep data, size_t length) {
    crows_reader *r = png_get_io_ptr(png);
    while (length > 0) {
        if (r->used == r->buffered) {
            ssize_t n = pread(r->fd, r->buffer, crows_buffer_size, r->offset);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) png_error(png, n == 0 ? "the file ends before the picture does" : "the file cannot be read");
            r->offset += n;
            r->buffered = (size_t)n;
            r->used = 0;
        }
        size_t take = r->buffered - r->used < length ? r->buffered - r->used : length;
        memcpy(data, r->buffer + r->used, take);
        r->used += take;
        data += take;
        length -= take;
    }
}

// Keeps libpng's text for Swift, then unwinds to the setjmp of the call in progress.
static void png_fail(png_structp png, png_const_charp text) {
    crows_reader *r = png_get_error_ptr(png);
    snprintf(r->message, sizeof r->message, "libpng: %s", text);
    longjmp(r->jump, 1);
}

// Warnings (a bad CRC in an ancillary chunk, an unknown chunk) leave the picture readable.
static void png_warn(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

// Where libpng stopped: at the first IDAT chunk's data, its header just read. When the layout
// is plain, its rows are inflated from there by ISA-L; 1 if so.
static int open_fast_png(crows_reader *r) {
    int type = png_get_color_type(r->png, r->info);
    int channels = type == PNG_COLOR_TYPE_GRAY ? 1 : type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
                 : type == PNG_COLOR_TYPE_RGB ? 3 : type == PNG_COLOR_TYPE_RGB_ALPHA ? 4 : 0;
    int depth = png_get_bit_depth(r->png, r->info);
    if (channels == 0 || (depth != 8 && depth != 16) || png_get_valid(r->png, r->info, PNG_INFO_tRNS)) return 0;
    // 16-bit rows (scans, astronomy) are narrowed into `scanline` before they become RGBA.
    if (depth == 16 && (r->scanline = malloc((size_t)r->width * (size_t)channels)) == NULL) return 0;
    off_t payload = r->offset - (off_t)(r->buffered - r->used);
    uint8_t head[8];
    if (payload < 8 || pread(r->fd, head, sizeof head, payload - 8) != (ssize_t)sizeof head || memcmp(head + 4, "IDAT", 4) != 0) return 0;
    uint32_t length = (uint32_t)head[0] << 24 | (uint32_t)head[1] << 16 | (uint32_t)head[2] << 8 | head[3];
    int bytes = depth / 8;
    r->fast = inflated_png(r->fd, payload, length, (uint32_t)r->height, (size_t)r->width * (size_t)(channels * bytes),
                           channels * bytes);
    if (r->fast == NULL) return 0;
    r->samples = channels;
    r->bits = depth;
    return 1;
}

void crows_open_png(crows_reader *r) {
    r->buffer = malloc(crows_buffer_size);
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, png_fail, png_warn);
    if (r->buffer == NULL || r->png == NULL) return crows_failed(r, CROWS_FAILED, "libpng: out of memory");
    r->info = png_create_info_struct(r->png);
    if (r->info == NULL) return crows_failed(r, CROWS_FAILED, "libpng: out of memory");
    if (setjmp(r->jump)) {
        r->status = CROWS_FAILED;
        return;
    }
    png_set_read_fn(r->png, r, png_read_fd);
    // libpng's own cap is a million pixels a side; the caller's memory budget decides.
    png_set_user_limits(r->png, 0x7fffffff, 0x7fffffff);
    // The checksums of the compressed data are a tenth of the time of a large picture (CRC-32
    // per chunk, Adler-32 over the stream); a damaged file still fails on its structure, or
    // shows what it holds, as browsers show it.
    png_set_crc_action(r->png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
#ifdef PNG_IGNORE_ADLER32
    png_set_option(r->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(r->png, r->info);
    r->width = (int)png_get_image_width(r->png, r->info);
    r->height = (int)png_get_image_height(r->png, r->info);
    if (png_get_interlace_type(r->png, r->info) != PNG_INTERLACE_NONE) {
        return crows_failed(r, CROWS_UNSUPPORTED, "an interlaced PNG this large cannot be read a row at a time");
    }
    if (open_fast_png(r)) return;
    // Every layout as 8-bit RGBA: palettes and grey expanded, 16 bits scaled, opaque filled.
    png_set_expand(r->png);
    png_set_scale_16(r->png);
    png_set_gray_to_rgb(r->png);
    png_set_filler(r->png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(r->png, r->info);
    if (png_get_rowbytes(r->png, r->info) != (size_t)r->width * 4) {
        return crows_failed(r, CROWS_UNSUPPORTED, "libpng: a row layout other than RGBA");
    }
}

// libpng's rows, transformed to RGBA as it reads them.
static crows_status read_with_libpng(crows_reader *r, uint8_t *dst, int rows) {
    if (setjmp(r->jump)) {
        r->status = CROWS_FAILED;
        return CROWS_FAILED;
    }
    for (int i = 0; i < rows; i++) png_read_row(r->png, dst + (size_t)i * (size_t)r->width * 4, NULL);
    r->next_row += rows;
    return CROWS_OK;
}

crows_status crows_read_png(crows_reader *r, uint8_t *dst, int rows) {
    if (r->fast == NULL) return read_with_libpng(r, dst, rows);
    for (int i = 0; i < rows; i++, r->next_row++) {
        const uint8_t *s = inflated_next(r->fast);
        if (s == NULL) {
            crows_failed(r, CROWS_FAILED, inflated_message(r->fast));
            return CROWS_FAILED;
        }
        if (r->bits == 16) {
            // Big-endian samples scaled to 8 bits with rounding, as libpng's png_set_scale_16 does.
            size_t n = (size_t)r->width * (size_t)r->samples;
            for (size_t k = 0; k < n; k++) r->scanline[k] = (uint8_t)(((uint32_t)(s[2 * k] << 8 | s[2 * k + 1]) * 255 + 32895) >> 16);
            s = r->scanline;
        }
        crows_to_rgba(s, r->samples, 8, r->width, dst + (size_t)i * (size_t)r->width * 4);
    }
    return CROWS_OK;
}

void crows_free_png(crows_reader *r) {
    if (r->png != NULL) png_destroy_read_struct(&r->png, r->info != NULL ? &r->info : NULL, NULL);
    free(r->buffer);
}
