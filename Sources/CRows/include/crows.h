#ifndef MEDIAVIEW_CROWS_H
#define MEDIAVIEW_CROWS_H

// Pictures too large to hold whole (PNG and TIFF scans, panoramas), read from the top a few
// rows at a time, and halved as they come.
//
// libpng reports errors by longjmp, which Swift cannot unwind, and libtiff through a global
// handler that prints; these helpers keep both behind C and hand Swift status codes and the
// library's own sentence.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// What a call did: done, failed (crows_message says why), or declined: a format or layout
// that cannot be read row by row (an interlaced PNG keeps its rows in seven passes).
typedef enum {
    CROWS_OK = 0,
    CROWS_FAILED = 1,
    CROWS_UNSUPPORTED = 2,
} crows_status;

// The file a reader reads, by format.
typedef enum {
    CROWS_PNG = 1,
    CROWS_TIFF = 2,
} crows_format;

// One reading of one picture from its top; opaque because it holds a jmp_buf and the
// libraries' structs.
typedef struct crows_reader crows_reader;

// Opens the PNG or TIFF behind `fd` (read with pread from offset 0; the fd stays the
// caller's) and reads its header; NULL only without memory. A reader that failed to open
// still answers crows_status and crows_message, then is freed.
crows_reader *crows_open(int fd, crows_format format);

// How opening went: CROWS_OK when rows can be read.
crows_status crows_open_status(const crows_reader *r);

// The stored size, known once opened.
int crows_width(const crows_reader *r);
int crows_height(const crows_reader *r);

// Reads the next `rows` rows, top first, as RGBA (8 bits a channel, straight alpha, opaque
// when the file has none) into `dst`, `width * 4` bytes a row with no gaps.
crows_status crows_read(crows_reader *r, uint8_t *dst, int rows);

// The library's own one-line reason for the last failure.
const char *crows_message(const crows_reader *r);

// One cleanup whatever stage a reading stopped at.
void crows_free(crows_reader *r);

// Halves two RGBA rows of `width` pixels into one of (width + 1) / 2, each pixel the
// rounded mean of the 2x2 square over it (the last column of an odd width pairs with
// itself; pass `below` = `above` for the last row of an odd height). The step from each
// level of a tile pyramid to the next: C so the compiler vectorises it.
void crows_halve(const uint8_t *above, const uint8_t *below, int width, uint8_t *dst);

// A new empty file in `directory` that no other program can open and that vanishes when
// closed (O_TMPFILE, or a name unlinked at once where the file system has no O_TMPFILE);
// -1 with errno set. C because O_TMPFILE is a macro of flags Swift cannot import.
int crows_unnamed_file(const char *directory);

// Turns the page cache off (`on` = 1) or back on for writes through `fd` (O_DIRECT); 0 when
// done, -1 with errno when the file system cannot. A 200 MP picture's tiles are a gigabyte that
// nothing reads soon: through the cache its copy cost as much CPU as inflating the picture,
// and it pushed out what the user's other programs had cached. C because O_DIRECT is a GNU
// macro Swift cannot import.
int crows_bypass_cache(int fd, int on);

// The alignment of the file offset, length and memory of a write past the page cache.
enum { CROWS_DIRECT_ALIGNMENT = 4096 };

// Copies `rows` rows of `row_bytes` bytes, `stride` apart from `first`, into `staging`
// (CROWS_DIRECT_ALIGNMENT-aligned) and writes them at `offset` of `fd` in one write (lseek,
// then write: the calls a sandboxed worker may make). The bytes written, or -1 with errno.
long crows_write_rows(int fd, long offset, const uint8_t *first, size_t stride, size_t row_bytes, int rows,
                      uint8_t *staging);

#ifdef __cplusplus
}
#endif

#endif
