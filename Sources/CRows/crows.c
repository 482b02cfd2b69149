#define _GNU_SOURCE
#include "crows.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <png.h>
#include <tiffio.h>

#include "inflated.h"

// libpng asks for a few bytes at a time (chunk headers, 8 KiB of IDAT): reading the file a
// MiB at a time keeps a 300 MB scan to a few hundred system calls.
enum { crows_buffer_size = 1 << 20 };

// A strip or tile is decoded whole; one larger than this would be the whole picture in
// memory under another name.
#define CROWS_LARGEST_PIECE ((uint64_t)256 << 20)
// The compressed bytes of one strip read a row at a time are held whole: a file in one
// strip larger than this is refused rather than held.
#define CROWS_LARGEST_COMPRESSED ((uint64_t)768 << 20)

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
    // row at a time, not a strip at a time: one strip can be most of the picture.
    uint8_t *scanline;
    int samples, bits;
    // The plainest deflated layouts (8-bit samples, PNG without palette or interlacing), whose
    // rows ISA-L inflates instead of libpng's or libtiff's zlib.
    inflated *fast;
};

static void failed(crows_reader *r, crows_status status, const char *text) {
    r->status = status;
    snprintf(r->message, sizeof r->message, "%s", text);
}

// MARK: PNG

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
    if (channels == 0 || png_get_bit_depth(r->png, r->info) != 8 || png_get_valid(r->png, r->info, PNG_INFO_tRNS)) return 0;
    off_t payload = r->offset - (off_t)(r->buffered - r->used);
    uint8_t head[8];
    if (payload < 8 || pread(r->fd, head, sizeof head, payload - 8) != (ssize_t)sizeof head || memcmp(head + 4, "IDAT", 4) != 0) return 0;
    uint32_t length = (uint32_t)head[0] << 24 | (uint32_t)head[1] << 16 | (uint32_t)head[2] << 8 | head[3];
    r->fast = inflated_png(r->fd, payload, length, (uint32_t)r->height, (size_t)r->width * (size_t)channels, channels);
    if (r->fast == NULL) return 0;
    r->samples = channels;
    r->bits = 8;
    return 1;
}

static void open_png(crows_reader *r) {
    r->buffer = malloc(crows_buffer_size);
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, png_fail, png_warn);
    if (r->buffer == NULL || r->png == NULL) return failed(r, CROWS_FAILED, "libpng: out of memory");
    r->info = png_create_info_struct(r->png);
    if (r->info == NULL) return failed(r, CROWS_FAILED, "libpng: out of memory");
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
        return failed(r, CROWS_UNSUPPORTED, "an interlaced PNG this large cannot be read a row at a time");
    }
    if (open_fast_png(r)) return;
    // Every layout as 8-bit RGBA: palettes and grey expanded, 16 bits scaled, opaque filled.
    png_set_expand(r->png);
    png_set_scale_16(r->png);
    png_set_gray_to_rgb(r->png);
    png_set_filler(r->png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(r->png, r->info);
    if (png_get_rowbytes(r->png, r->info) != (size_t)r->width * 4) {
        return failed(r, CROWS_UNSUPPORTED, "libpng: a row layout other than RGBA");
    }
}

// MARK: TIFF

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
    failed(r, CROWS_FAILED, line);
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

// One row of `samples` grey or RGB samples (with alpha when 2 or 4) of `bits` bits into RGBA.
static void to_rgba(const uint8_t *s, int n, int bits, int width, uint8_t *dst) {
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

// One row of the plain layout into RGBA.
static int read_row(crows_reader *r, uint8_t *dst) {
    const uint8_t *s = r->scanline;
    if (r->fast != NULL) {
        s = inflated_next(r->fast);
        if (s == NULL) return 0;
    } else if (TIFFReadScanline(r->tiff, r->scanline, (uint32_t)r->next_row, 0) < 0) {
        return 0;
    }
    to_rgba(s, r->samples, r->bits, r->width, dst);
    return 1;
}

static void open_tiff(crows_reader *r) {
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
        return failed(r, CROWS_UNSUPPORTED, line);
    }
    char why[1024] = "";
    if (!TIFFRGBAImageOK(r->tiff, why) || !TIFFRGBAImageBegin(&r->image, r->tiff, 1, why)) {
        char line[256];
        snprintf(line, sizeof line, "libtiff: %s", why[0] ? why : "a layout that cannot be shown");
        return failed(r, CROWS_UNSUPPORTED, line);
    }
    r->image_begun = 1;
    r->image.req_orientation = ORIENTATION_TOPLEFT;
    if (r->image.width > 0x7fffffff || r->image.height > 0x7fffffff) return failed(r, CROWS_UNSUPPORTED, "libtiff: a picture too large");
    r->width = (int)r->image.width;
    r->height = (int)r->image.height;
}

// MARK: Both

crows_reader *crows_open(int fd, crows_format format) {
    crows_reader *r = calloc(1, sizeof *r);
    if (r == NULL) return NULL;
    r->fd = fd;
    r->format = format;
    if (format == CROWS_PNG) open_png(r);
    else if (format == CROWS_TIFF) open_tiff(r);
    else failed(r, CROWS_UNSUPPORTED, "not a PNG or TIFF file");
    if (r->status == CROWS_OK && (r->width <= 0 || r->height <= 0)) failed(r, CROWS_FAILED, "the picture has no size");
    return r;
}

crows_status crows_open_status(const crows_reader *r) { return r->status; }
int crows_width(const crows_reader *r) { return r->width; }
int crows_height(const crows_reader *r) { return r->height; }
const char *crows_message(const crows_reader *r) { return r->message; }

static crows_status read_png(crows_reader *r, uint8_t *dst, int rows) {
    if (setjmp(r->jump)) {
        r->status = CROWS_FAILED;
        return CROWS_FAILED;
    }
    for (int i = 0; i < rows; i++) png_read_row(r->png, dst + (size_t)i * (size_t)r->width * 4, NULL);
    return CROWS_OK;
}

crows_status crows_read(crows_reader *r, uint8_t *dst, int rows) {
    if (r->status != CROWS_OK) return r->status;
    if (rows <= 0 || rows > r->height - r->next_row) {
        failed(r, CROWS_FAILED, "rows asked for past the end of the picture");
        return CROWS_FAILED;
    }
    if (r->format == CROWS_PNG && r->fast != NULL) {
        for (int i = 0; i < rows; i++, r->next_row++) {
            const uint8_t *s = inflated_next(r->fast);
            if (s == NULL) {
                failed(r, CROWS_FAILED, inflated_message(r->fast));
                return CROWS_FAILED;
            }
            to_rgba(s, r->samples, 8, r->width, dst + (size_t)i * (size_t)r->width * 4);
        }
        return CROWS_OK;
    } else if (r->format == CROWS_PNG) {
        if (read_png(r, dst, rows) != CROWS_OK) return CROWS_FAILED;
    } else if (r->scanline != NULL) {
        tiff_message[0] = 0;
        for (int i = 0; i < rows; i++, r->next_row++) {
            if (!read_row(r, dst + (size_t)i * (size_t)r->width * 4)) {
                if (r->fast != NULL) failed(r, CROWS_FAILED, inflated_message(r->fast));
                else tiff_failed(r, "the picture's data is damaged");
                return CROWS_FAILED;
            }
        }
        return CROWS_OK;
    } else {
        tiff_message[0] = 0;
        r->image.row_offset = r->next_row;
        r->image.col_offset = 0;
        // uint32 pixels in the byte order R, G, B, A on a little-endian machine: RGBA bytes.
        if (!TIFFRGBAImageGet(&r->image, (uint32_t *)(void *)dst, (uint32_t)r->width, (uint32_t)rows)) {
            tiff_failed(r, "the picture's data is damaged");
            return CROWS_FAILED;
        }
    }
    r->next_row += rows;
    return CROWS_OK;
}

void crows_free(crows_reader *r) {
    if (r == NULL) return;
    if (r->png != NULL) png_destroy_read_struct(&r->png, r->info != NULL ? &r->info : NULL, NULL);
    if (r->image_begun) TIFFRGBAImageEnd(&r->image);
    if (r->tiff != NULL) TIFFClose(r->tiff);
    free(r->buffer);
    free(r->scanline);
    inflated_free(r->fast);
    free(r);
}

void crows_halve(const uint8_t *above, const uint8_t *below, int width, uint8_t *dst) {
    int pairs = width / 2;
    for (int i = 0; i < pairs; i++) {
        const uint8_t *a = above + i * 8, *b = below + i * 8;
        uint8_t *d = dst + i * 4;
        for (int c = 0; c < 4; c++) d[c] = (uint8_t)((a[c] + a[c + 4] + b[c] + b[c + 4] + 2) >> 2);
    }
    if (width & 1) {
        const uint8_t *a = above + pairs * 8, *b = below + pairs * 8;
        uint8_t *d = dst + pairs * 4;
        for (int c = 0; c < 4; c++) d[c] = (uint8_t)((a[c] + b[c] + 1) >> 1);
    }
}

int crows_unnamed_file(const char *directory) {
    int fd = open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
    char name[4096];
    if (snprintf(name, sizeof name, "%s/mediaview-tiles-XXXXXX", directory) >= (int)sizeof name) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = mkostemp(name, O_CLOEXEC);
    if (fd >= 0) unlink(name);
    return fd;
}

int crows_bypass_cache(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, on ? flags | O_DIRECT : flags & ~O_DIRECT);
}

long crows_write_rows(int fd, long offset, const uint8_t *first, size_t stride, size_t row_bytes, int rows,
                      uint8_t *staging) {
    for (int i = 0; i < rows; i++) memcpy(staging + (size_t)i * row_bytes, first + (size_t)i * stride, row_bytes);
    if (lseek(fd, offset, SEEK_SET) != offset) return -1;
    size_t want = row_bytes * (size_t)rows, done = 0;
    while (done < want) {
        ssize_t n = write(fd, staging + done, want - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return done > 0 ? (long)done : -1;
        done += (size_t)n;
    }
    return (long)done;
}
