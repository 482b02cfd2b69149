#ifndef MEDIAVIEW_CROWS_INFLATED_H
#define MEDIAVIEW_CROWS_INFLATED_H

// The rows of a deflated PNG or TIFF strip, inflated by ISA-L rather than by the libraries'
// zlib. A 200 MP scan is 600 MB of rows in one deflate stream that no second core can share;
// zlib inflates it in 2.2 s, ISA-L in 0.9 s, and the picture's first view waits on nothing else.
// Only the plainest layouts come this way (8-bit samples, no interlacing, no palette); every
// other layout stays with libpng and libtiff.

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

// One picture's rows, read from the top.
typedef struct inflated inflated;

// A PNG's `height` rows: the IDAT chunks from the one whose payload begins at `payload`
// (`length` bytes), each row `row_bytes` after its filter byte, `pixel_bytes` to a pixel (the
// filters' step). NULL only without memory.
inflated *inflated_png(int fd, off_t payload, uint32_t length, uint32_t height, size_t row_bytes, int pixel_bytes);

// A TIFF's rows: `strips` zlib streams at `offsets` of `counts` bytes, `rows_per_strip` rows
// each but the last, `height` rows in all, each `row_bytes`; with `difference`, each sample
// after the first of a row is stored as its difference from the one `pixel_bytes` before
// (the horizontal predictor). The arrays are copied. NULL only without memory.
inflated *inflated_tiff(int fd, const uint64_t *offsets, const uint64_t *counts, uint32_t strips,
                        uint32_t rows_per_strip, uint32_t height, size_t row_bytes, int pixel_bytes, int difference);

// The next row's samples, valid until the next call; NULL when the data is damaged or ends
// early, with the reason in inflated_message. The rows are inflated ahead on a thread of the
// reader's own, started by the first call and ended by inflated_free; one caller at a time.
const uint8_t *inflated_next(inflated *d);

// Why the last inflated_next returned NULL, as a sentence.
const char *inflated_message(const inflated *d);

void inflated_free(inflated *d);

#endif
