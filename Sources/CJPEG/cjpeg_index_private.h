#ifndef MEDIAVIEW_CJPEG_INDEX_PRIVATE_H
#define MEDIAVIEW_CJPEG_INDEX_PRIVATE_H

// What the scan of a baseline JPEG learns and the splice needs; shared by cjpeg_index.c,
// which builds it, and cjpeg_splice.c, which cuts rows out with it. Not for Swift.

#include <stddef.h>
#include <stdint.h>

#include "cjpeg.h"

#define IX_MAX_COMPONENTS 4
// Codes up to this many bits are found with one table look-up; longer ones bit by bit.
#define IX_LOOKAHEAD 9

// One Huffman table as the DHT gives it, with what decoding and re-encoding need.
typedef struct {
    int defined;
    int count;                           // symbols in the table
    uint8_t values[256];                 // symbols in code order
    int32_t maxcode[18];                 // largest code of each length, -1 if none
    int32_t valoffset[18];               // symbol index = code + valoffset[length]
    uint8_t look_len[1 << IX_LOOKAHEAD]; // length of the code a 9-bit prefix starts, 0 if longer
    uint8_t look_sym[1 << IX_LOOKAHEAD];
    uint16_t code_of[256];               // the code of each symbol (DC categories re-encoded)
    uint8_t size_of[256];                // its length, 0 if the symbol is not in the table
} ix_huff;

// A place in the entropy-coded data: the byte (never a stuffed zero) and the bits of it used.
typedef struct {
    size_t off;
    int bit;
} ix_pos;

// Where an MCU row starts and what a fresh scan from there needs.
typedef struct {
    ix_pos start;
    int restart;                         // a restart marker comes just before: predictors are 0
    int pred[IX_MAX_COMPONENTS];         // DC predictors before the row's first block
    ix_pos dc[IX_MAX_COMPONENTS];        // where each component's first DC difference is coded
    int dc_bits[IX_MAX_COMPONENTS];      // its code and extra bits together
    int dc_diff[IX_MAX_COMPONENTS];      // the difference it codes
} ix_row;

// Every few MCUs along a row (of a file without restart markers), where an MCU starts and
// the predictors before it: a tile zoomed to 1:1 in the middle of a panorama is cut out of
// the columns it needs, not the whole width of its rows, whose entropy decoding was six
// sevenths of its time. Every 8 MCUs (128 pixels of a 4:2:0 photo, 32 bytes a mark: 3 MiB
// for 200 MP), further apart when the marks would pass IX_MARKS_BUDGET (a flat grey file
// claiming 65535x65535 pixels in a few megabytes would ask for 268 MiB).
#define IX_COLUMN_STEP 8
#define IX_MARKS_BUDGET (32u << 20)

typedef struct {
    ix_pos at;
    int pred[IX_MAX_COMPONENTS];
} ix_mark;

struct cjpeg_index {
    size_t size;                         // of the file indexed, to refuse other bytes
    size_t header_end;                   // first byte of entropy data, just past the SOS
    size_t height_at;                    // where the SOF's 16-bit height is
    int width, height;
    int ncomp;
    int h[IX_MAX_COMPONENTS], v[IX_MAX_COMPONENTS];
    int dc_table[IX_MAX_COMPONENTS], ac_table[IX_MAX_COMPONENTS];
    int hmax, vmax;
    int restart_interval;                // MCUs between restart markers, 0 if none
    int mcus_per_row, mcu_rows;
    ix_huff dc[4], ac[4];
    ix_row *rows;                        // mcu_rows + 1 entries: the last is the end of the data
                                         // and the predictors after the last MCU
    int column_step;                     // MCUs between marks
    int marks_per_row;                   // 0 when there are no marks (restart markers)
    ix_mark *marks;                      // mcu_rows * marks_per_row, row by row
};

// The entropy-coded bits, read ahead into a 64-bit word with the 0xFF00 stuffing removed;
// it stops at a marker or at the end of the bytes, whichever comes first.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;       // next byte to read into the word
    uint64_t acc;     // bits not yet used, at the top
    int nbits;
    size_t filled;    // data bytes read since the last restart, to find a bit's byte again
} ix_reader;

// Reads ahead into the word, up to a marker or the end.
void ix_fill(ix_reader *r);
// The next n bits (n <= 16) as a number, or -1 when the data ends first.
int ix_bits(ix_reader *r, int n);
// One Huffman symbol, or -1 for a code not in the table or data that ends first.
int ix_decode(ix_reader *r, const ix_huff *t);
// The value an n-bit extra field codes (JPEG's EXTEND).
int ix_extend(int bits, int n);
// Past a restart marker: the padding of the byte before dropped, the marker's number checked.
int ix_restart(ix_reader *r, int number);

// A JPEG being written, grown as bytes come; bits are packed high first, 0xFF stuffed.
typedef struct {
    uint8_t *bytes;
    size_t length, capacity;
    uint32_t acc;  // bits not yet a whole byte, at the bottom
    int nbits;
    int failed;    // out of memory, or data that cannot be written
} ix_writer;

// One byte as it is (markers, headers).
void ix_byte(ix_writer *w, uint8_t b);
// n bits (n <= 24) of value, high first; a 0xFF byte of entropy data is followed by a zero.
void ix_put(ix_writer *w, uint32_t value, int n);
// The category (bits of magnitude) of a DC difference, 16 when baseline cannot code it.
int ix_category(int v);

// Builds the decoding and encoding tables from a DHT's counts and symbols; 0 if they are not a code.
int ix_huff_build(ix_huff *t, const uint8_t counts[16], const uint8_t *values, int is_dc);

// A big-endian 16-bit number, as markers' lengths and sizes are stored.
size_t ix_be16(const uint8_t *p);
// A DHT segment's tables into ix's, each checked as libjpeg checks it.
cjpeg_status ix_dht(struct cjpeg_index *ix, const uint8_t *seg, size_t n);
// A frame header's size, components and sampling into ix, their ids into ids.
cjpeg_status ix_sof(struct cjpeg_index *ix, const uint8_t *seg, size_t n, int ids[]);

// Reads the markers up to the scan into ix (sizes, tables, restart interval, components in
// scan order, where the entropy data starts); CJPEG_UNSUPPORTED for kinds the index leaves to libjpeg.
cjpeg_status ix_markers(struct cjpeg_index *ix, const uint8_t *data, size_t size);

#endif
