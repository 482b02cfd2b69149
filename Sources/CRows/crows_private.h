#ifndef MEDIAVIEW_CROWS_PRIVATE_H
#define MEDIAVIEW_CROWS_PRIVATE_H

// What the PNG and TIFF halves of a reader share: the reader itself, and the calls crows.c
// dispatches to each by format.

#include "crows.h"

#include <setjmp.h>
#include <sys/types.h>

#include <png.h>
#include <tiffio.h>

#include "inflated.h"

struct crows_reader {
    crows_format format;
    int fd;
    crows_status status;
    int width, height;
    int next_row;
    char message[256];
    // PNG: where libpng's errors unwind to, and the read-ahead of the file.
    jmp_buf jump;
    png_structp png;
    png_infop info;
    uint8_t *buffer;
    size_t buffered, used;
    off_t offset;
    // TIFF: the file and libtiff's reader of RGBA rows.
    TIFF *tiff;
    TIFFRGBAImage image;
    int image_begun;
    // A plain layout (grey or RGB, with or without alpha, 8 or 16 bits, in strips) is read a
    // row at a time, not a strip at a time: one strip can be most of the picture. A 16-bit
    // PNG's rows are narrowed into it.
    uint8_t *scanline;
    int samples, bits;
    // The plainest deflated layouts (a PNG without palette, transparency chunk or interlacing;
    // a TIFF of 8-bit samples in strips), whose rows ISA-L inflates instead of libpng's or
    // libtiff's zlib.
    inflated *fast;
};

// Marks the reader failed (or declined) with its one line.
void crows_failed(crows_reader *r, crows_status status, const char *text);

// One row of `n` grey or RGB samples (with alpha when 2 or 4) of `bits` bits into RGBA.
void crows_to_rgba(const uint8_t *s, int n, int bits, int width, uint8_t *dst);

// Each format's opening (the header, and the way its rows will be read), the next `rows`
// rows as RGBA, and its share of the cleanup.
void crows_open_png(crows_reader *r);
crows_status crows_read_png(crows_reader *r, uint8_t *dst, int rows);
void crows_free_png(crows_reader *r);
void crows_open_tiff(crows_reader *r);
crows_status crows_read_tiff(crows_reader *r, uint8_t *dst, int rows);
void crows_free_tiff(crows_reader *r);

#endif
