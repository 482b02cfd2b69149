#ifndef MEDIAVIEW_CJPEG_H
#define MEDIAVIEW_CJPEG_H

// A JPEG still decoder over libjpeg-turbo, scaled in the DCT domain.
//
// libjpeg reports fatal errors by calling error_exit, which must not return; the only way
// out is longjmp, which Swift cannot do. These helpers keep every libjpeg call behind a
// setjmp here in C and hand Swift plain status codes instead.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// What a call did: done, failed (cjpeg_message says why), or declined because the colour
// space (CMYK, YCCK) is left to another decoder.
typedef enum {
    CJPEG_OK = 0,
    CJPEG_FAILED = 1,
    CJPEG_UNSUPPORTED = 2,
    // The data ended before the picture: the rows after the cut are filler, not the photo.
    CJPEG_TRUNCATED = 3,
} cjpeg_status;

// What the header says, and the size the picture comes out at after scaling.
typedef struct {
    int image_width, image_height;   // as stored
    int width, height;               // as decoded: ceil(image size / scale_denom)
    int density_x, density_y;        // JFIF pixel density, FFmpeg's sample aspect ratio; 0 if none
    int progressive;                 // progressive coding: every coefficient is held at full size
} cjpeg_info;

// One decode of one picture; opaque because it holds libjpeg's structs and a jmp_buf.
typedef struct cjpeg_decoder cjpeg_decoder;

// libjpeg with an error handler that returns a status instead of exiting or printing; NULL if out of memory.
cjpeg_decoder *cjpeg_new(void);

// One cleanup for Swift whatever stage a decode stopped at.
void cjpeg_free(cjpeg_decoder *d);

// The size at 1/scale_denom (1, 2, 4, 8) before any pixel, so Swift can check the budget and allocate.
// `data` is not copied: it must stay alive until the decode is done.
cjpeg_status cjpeg_read_header(cjpeg_decoder *d, const uint8_t *data, size_t size, int scale_denom,
                               cjpeg_info *info);

// Decodes BGRX straight into the caller's frame; a truncated file is filled in and reported
// as CJPEG_TRUNCATED, so the caller can refuse to show it as whole.
cjpeg_status cjpeg_decode_into(cjpeg_decoder *d, uint8_t *dst, ptrdiff_t stride);

// Changes the scale after the header was read: the pixel budget is weighed against the
// stored size, known only from the header. `info` gets the new decoded size.
cjpeg_status cjpeg_set_scale(cjpeg_decoder *d, int scale_denom, cjpeg_info *info);

// Caps libjpeg's working memory: a progressive JPEG holds every coefficient of the full
// picture whatever the scale, and a huge one must fail rather than take all memory.
void cjpeg_limit_memory(cjpeg_decoder *d, size_t bytes);

// Decodes only `width` x `height` pixels at (x, y), in decoded (scaled) coordinates, BGRX
// into `dst`: the detail of a zoomed picture too large to hold whole. Rows above are skipped
// (entropy-decoded only) and columns beside are never transformed.
cjpeg_status cjpeg_decode_region(cjpeg_decoder *d, int x, int y, int width, int height, uint8_t *dst,
                                  ptrdiff_t stride);

// The colour profile embedded in APP2 markers, reassembled (malloc'd; the caller frees it),
// or NULL when there is none; read after cjpeg_read_header, for colour management.
uint8_t *cjpeg_icc_profile(cjpeg_decoder *d, unsigned int *length);

// After a decode of a file cut short (a download still under way): how many rows from the
// top are the picture's own; the rows below are libjpeg's filler. All rows when not cut.
int cjpeg_rows_present(const cjpeg_decoder *d);

// libjpeg's own one-line reason for the last failure, for the error Swift throws.
const char *cjpeg_message(const cjpeg_decoder *d);

// Where each row of MCUs starts in a baseline JPEG's entropy data, found by one walk of the
// scan: a tile near the bottom of a huge photo then decodes from a few rows cut out of the
// file, instead of entropy-decoding every row above it. Opaque: C owns its arrays.
typedef struct cjpeg_index cjpeg_index;

// Reads the whole scan once; NULL with CJPEG_UNSUPPORTED (progressive, arithmetic, 12-bit,
// several scans, ...) or CJPEG_FAILED (corrupt or cut short), and the caller decodes the slow way.
cjpeg_index *cjpeg_index_build(const uint8_t *data, size_t size, cjpeg_status *status);

// One cleanup for the index's Swift owner.
void cjpeg_index_free(cjpeg_index *ix);

// Stored pixel rows in one row of MCUs, to find the MCU rows a tile lies in.
int cjpeg_index_row_height(const cjpeg_index *ix);

// How many rows of MCUs the picture has.
int cjpeg_index_rows(const cjpeg_index *ix);

// Pixels in one column of MCUs, to find the columns a tile lies in.
int cjpeg_index_column_width(const cjpeg_index *ix);

// How many MCUs a row has.
int cjpeg_index_columns(const cjpeg_index *ix);

// A progressive JPEG's DC scans written again as a baseline JPEG of the same size whose
// blocks hold their DC alone: at an eighth, libjpeg decodes it a row at a time into the
// picture the DC scans describe, where the progressive file would need every coefficient
// held at once. NULL for another kind of JPEG, or scans that cannot be read (the caller
// decodes the file as before). malloc'd; the caller frees it.
uint8_t *cjpeg_progressive_dc(const uint8_t *data, size_t size, size_t *length);

// A JPEG of its own holding MCU rows [first, end) and, of each, no more of the columns
// than [column, column_end) rounded out to the index's marks, so that a tile is decoded
// without entropy-decoding the whole width of its rows. Every row begins with a few flat
// MCUs that carry the DC predictors over to the file's, decoded and thrown away: the piece's
// column 0 is the file's MCU column `*left` (negative when it lies in those). NULL for a
// file with restart markers, for columns that are the whole width, or predictors its
// tables cannot code: the caller cuts rows then. malloc'd; the caller frees it.
uint8_t *cjpeg_index_splice_area(const cjpeg_index *ix, const uint8_t *data, size_t size, int first, int end,
                                 int column, int column_end, int *left, size_t *length);

// A JPEG of its own holding MCU rows [first, end) of `data` (the bytes indexed), for libjpeg
// to decode as the file; malloc'd, the caller frees it. `*start` is the row it begins at:
// above `first` when it must begin at a restart marker. NULL when it cannot be made (the
// caller decodes the slow way).
uint8_t *cjpeg_index_splice(const cjpeg_index *ix, const uint8_t *data, size_t size, int first, int end,
                            int *start, size_t *length);

#ifdef __cplusplus
}
#endif

#endif
