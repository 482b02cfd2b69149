#define _GNU_SOURCE
#include "crows_private.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// A strip or tile is decoded whole; one larger than this would be the whole picture in
// memory under another name.
#define CROWS_LARGEST_PIECE ((uint64_t)256 << 20)
// The compressed bytes of one strip read a row at a time are held whole: a file in one
// strip larger than this is refused rather than held.
#define CROWS_LARGEST_COMPRESSED ((uint64_t)768 << 20)

// libtiff reports through one handler for the process: each thread keeps its last sentence.
static _Thread_local char tiff_message[256];

static void tiff_error(const char *module, const char *format, va_list arguments) {
    (void)module;
    vsnprintf(tiff_message, sizeof tiff_message, format, arguments);
}

static pthread_once_t tiff_handlers = PTHREAD_ONCE_INIT;

// Errors kept for the one line; warnings (unknown tags, odd but readable files) dropped.
static void set_tiff_handlers(void) {
    TIFFSetErrorHandler(tiff_error);
    TIFFSetWarningHandler(NULL);
}

static tmsize_t tiff_read(thandle_t handle, void *data, tmsize_t size) {
    crows_reader *r = handle;
    tmsize_t done = 0;
    while (done < size) {
        ssize_t n = pread(r->fd, (uint8_t *)data + done, (size_t)(size - done), r->offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += n;
        r->offset += n;
    }
    return done;
}

static tmsize_t tiff_write(thandle_t handle, void *data, tmsize_t size) {
    (void)handle;
    (void)data;
    (void)size;
    return -1;
}

static toff_t tiff_size(thandle_t handle) {
    struct stat st;
    return fstat(((crows_reader *)handle)->fd, &st) == 0 ? (toff_t)st.st_size : 0;
}

static toff_t tiff_seek(thandle_t handle, toff_t offset, int whence) {
    crows_reader *r = handle;
    off_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? r->offset : (off_t)tiff_size(handle);
    r->offset = base + (off_t)offset;
    return (toff_t)r->offset;
}

static int tiff_close(thandle_t handle) {
    (void)handle;
    return 0;
}

static int tiff_no_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static void tiff_no_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

static void tiff_failed(crows_reader *r, const char *fallback) {
    char line[256];
    snprintf(line, sizeof line, "libtiff: %s", tiff_message[0] ? tiff_message : fallback);
    crows_failed(r, CROWS_FAILED, line);
}

// A deflated TIFF in strips of 8-bit samples, its rows inflated by ISA-L from the file a MiB
// at a time, so that not even a strip's compressed bytes are held; NULL for any other.
static inflated *open_fast_tiff(TIFF *t, uint16_t compression, uint32_t width, uint32_t height, uint16_t samples) {
    uint16_t predictor = 1, fill_order = FILLORDER_MSB2LSB;
    uint32_t rows_per_strip = 0;
    if (compression != COMPRESSION_ADOBE_DEFLATE && compression != COMPRESSION_DEFLATE) return NULL;
    // Bits stored lowest first are reversed by libtiff before it inflates: left to it.
    TIFFGetFieldDefaulted(t, TIFFTAG_FILLORDER, &fill_order);
    if (fill_order != FILLORDER_MSB2LSB) return NULL;
    TIFFGetFieldDefaulted(t, TIFFTAG_PREDICTOR, &predictor);
    TIFFGetFieldDefaulted(t, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    uint32_t strips = TIFFNumberOfStrips(t);
    if ((predictor != 1 && predictor != 2) || rows_per_strip == 0 || strips == 0) return NULL;
    if (rows_per_strip > height) rows_per_strip = height;
    if ((uint64_t)strips * rows_per_strip < height) return NULL;
    uint64_t *offsets = malloc(strips * sizeof *offsets), *counts = malloc(strips * sizeof *counts);
    inflated *fast = NULL;
    if (offsets != NULL && counts != NULL) {
        uint32_t s = 0;
        for (; s < strips; s++) {
            offsets[s] = TIFFGetStrileOffset(t, s);
            counts[s] = TIFFGetStrileByteCount(t, s);
            if (offsets[s] == 0 || counts[s] == 0) break;
        }
        if (s == strips) {
            fast = inflated_tiff(((crows_reader *)TIFFClientdata(t))->fd, offsets, counts, strips, rows_per_strip, height, (size_t)width * samples,
                                 samples, predictor == 2);
        }
    }
    free(offsets);
    free(counts);
    return fast;
}

// Whether the picture is a layout read a row at a time (see `scanline`), and if so sets it up.
static int open_rows(crows_reader *r) {
    uint16_t bits = 0, samples = 0, planar = 0, photometric = 0, compression = 0;
    uint32_t width = 0, height = 0;
    TIFF *t = r->tiff;
    if (TIFFIsTiled(t) || !TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    TIFFGetFieldDefaulted(t, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(t, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(t, TIFFTAG_COMPRESSION, &compression);
    int grey = photometric == PHOTOMETRIC_MINISBLACK && (samples == 1 || samples == 2);
    int rgb = photometric == PHOTOMETRIC_RGB && (samples == 3 || samples == 4);
    if (!(grey || rgb) || (bits != 8 && bits != 16) || planar != PLANARCONFIG_CONTIG) return 0;
    // JPEG inside TIFF has its own colour handling, which the RGBA reader sets up.
    if (compression == COMPRESSION_JPEG || compression == COMPRESSION_OJPEG) return 0;
    if (!TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(t, TIFFTAG_IMAGELENGTH, &height)) return 0;
    if (width == 0 || height == 0 || width > 0x7fffffff / 8 || height > 0x7fffffff) return 0;
    r->fast = bits == 8 ? open_fast_tiff(t, compression, width, height, samples) : NULL;
    // Otherwise libtiff reads each strip's compressed bytes whole before it inflates its rows: a
    // file in one strip (as FFmpeg writes one) is held compressed, never inflated whole.
    for (uint32_t s = 0; r->fast == NULL && s < TIFFNumberOfStrips(t); s++) {
        if (TIFFGetStrileByteCount(t, s) > CROWS_LARGEST_COMPRESSED) return 0;
    }
    tmsize_t line = TIFFScanlineSize(t);
    if (line < (tmsize_t)width * samples * (bits / 8)) return 0;
    r->scanline = malloc((size_t)line);
    if (r->scanline == NULL) return 0;
    r->samples = samples;
    r->bits = bits;
    r->width = (int)width;
    r->height = (int)height;
    return 1;
}

// One row of the plain layout into RGBA.
static int read_row(crows_reader *r, uint8_t *dst) {
    const uint8_t *s = r->scanline;
    if (r->fast != NULL) {
        s = inflated_next(r->fast);
        if (s == NULL) return 0;
    } else if (TIFFReadScanline(r->tiff, r->scanline, (uint32_t)r->next_row, 0) < 0) {
        return 0;
    }
    crows_to_rgba(s, r->samples, r->bits, r->width, dst);
    return 1;
}

void crows_open_tiff(crows_reader *r) {
    pthread_once(&tiff_handlers, set_tiff_handlers);
    tiff_message[0] = 0;
    // "m": read with pread, never map: the file is read through its descriptor only.
    r->tiff = TIFFClientOpen("picture", "rm", r, tiff_read, tiff_write, tiff_seek, tiff_close, tiff_size,
                             tiff_no_map, tiff_no_unmap);
    if (r->tiff == NULL) return tiff_failed(r, "not a TIFF file that can be read");
    if (open_rows(r)) return;
    uint64_t piece = TIFFIsTiled(r->tiff) ? TIFFTileSize64(r->tiff) : TIFFStripSize64(r->tiff);
    if (piece == 0) return tiff_failed(r, "the picture's pieces cannot be found");
    if (piece > CROWS_LARGEST_PIECE) {
        char line[160];
        snprintf(line, sizeof line, "a TIFF stored in pieces of %llu MiB cannot be read a part at a time",
                 (unsigned long long)(piece >> 20));
        return crows_failed(r, CROWS_UNSUPPORTED, line);
    }
    char why[1024] = "";
    if (!TIFFRGBAImageOK(r->tiff, why) || !TIFFRGBAImageBegin(&r->image, r->tiff, 1, why)) {
        char line[256];
        snprintf(line, sizeof line, "libtiff: %s", why[0] ? why : "a layout that cannot be shown");
        return crows_failed(r, CROWS_UNSUPPORTED, line);
    }
    r->image_begun = 1;
    r->image.req_orientation = ORIENTATION_TOPLEFT;
    if (r->image.width > 0x7fffffff || r->image.height > 0x7fffffff) return crows_failed(r, CROWS_UNSUPPORTED, "libtiff: a picture too large");
    r->width = (int)r->image.width;
    r->height = (int)r->image.height;
}

crows_status crows_read_tiff(crows_reader *r, uint8_t *dst, int rows) {
    tiff_message[0] = 0;
    if (r->scanline != NULL) {
        for (int i = 0; i < rows; i++, r->next_row++) {
            if (!read_row(r, dst + (size_t)i * (size_t)r->width * 4)) {
                if (r->fast != NULL) crows_failed(r, CROWS_FAILED, inflated_message(r->fast));
                else tiff_failed(r, "the picture's data is damaged");
                return CROWS_FAILED;
            }
        }
        return CROWS_OK;
    }
    r->image.row_offset = r->next_row;
    r->image.col_offset = 0;
    // uint32 pixels in the byte order R, G, B, A on a little-endian machine: RGBA bytes.
    if (!TIFFRGBAImageGet(&r->image, (uint32_t *)(void *)dst, (uint32_t)r->width, (uint32_t)rows)) {
        tiff_failed(r, "the picture's data is damaged");
        return CROWS_FAILED;
    }
    r->next_row += rows;
    return CROWS_OK;
}

void crows_free_tiff(crows_reader *r) {
    if (r->image_begun) TIFFRGBAImageEnd(&r->image);
    if (r->tiff != NULL) TIFFClose(r->tiff);
    free(r->scanline);
}
