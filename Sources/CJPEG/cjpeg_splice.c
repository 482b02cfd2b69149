#include "cjpeg.h"
#include "cjpeg_index_private.h"

#include <stdlib.h>
#include <string.h>

// A few MCU rows of an indexed JPEG cut out as a JPEG of their own, which libjpeg decodes
// as it would the whole file: the header as it was (its height made the rows'), the rows'
// entropy bits copied, and the first DC difference of each component made absolute, since a
// new scan starts its predictors at 0.

// The JPEG being made, grown as bytes come; bits are packed high first, 0xFF stuffed.
typedef struct {
    uint8_t *bytes;
    size_t length, capacity;
    uint32_t acc;  // bits not yet a whole byte, at the bottom
    int nbits;
    int failed;    // out of memory
} ix_writer;

static void ix_byte(ix_writer *w, uint8_t b) {
    if (w->length == w->capacity) {
        size_t capacity = w->capacity ? w->capacity * 2 : 1 << 16;
        uint8_t *bytes = w->failed ? NULL : realloc(w->bytes, capacity);
        if (!bytes) {
            w->failed = 1;
            return;
        }
        w->bytes = bytes;
        w->capacity = capacity;
    }
    w->bytes[w->length++] = b;
}

// n bits (n <= 24) of value, high first; a 0xFF byte of entropy data is followed by a zero.
static void ix_put(ix_writer *w, uint32_t value, int n) {
    w->acc = (w->acc << n) | (value & ((1u << n) - 1));
    w->nbits += n;
    while (w->nbits >= 8) {
        uint8_t b = (uint8_t)(w->acc >> (w->nbits - 8));
        w->nbits -= 8;
        ix_byte(w, b);
        if (b == 0xFF) ix_byte(w, 0);
    }
}

// The entropy bits from `from` up to `to`, as they are in the file (no marker lies between:
// the data without restart markers is copied this way).
static void ix_copy_bits(ix_writer *w, const uint8_t *data, size_t size, ix_pos from, ix_pos to) {
    size_t p = from.off;
    int bit = from.bit;
    while (p < to.off && p < size) {
        uint8_t b = data[p];
        ix_put(w, b, 8 - bit);
        bit = 0;
        p += b == 0xFF ? 2 : 1;
    }
    if (p == to.off && p < size && to.bit > bit) ix_put(w, (uint32_t)data[p] >> (8 - to.bit), to.bit - bit);
}

// The bytes from a restart boundary up to `to`, restart markers numbered again from RST0.
static void ix_copy_bytes(ix_writer *w, const uint8_t *data, size_t size, ix_pos from, ix_pos to) {
    int restarts = 0;
    size_t p = from.off;
    while (p < to.off && p < size) {
        if (data[p] == 0xFF && p + 1 < size && data[p + 1] >= 0xD0 && data[p + 1] <= 0xD7) {
            ix_byte(w, 0xFF);
            ix_byte(w, (uint8_t)(0xD0 + (restarts++ & 7)));
            p += 2;
        } else {
            ix_byte(w, data[p++]);
        }
    }
    if (p == to.off && p < size && to.bit > 0) ix_put(w, (uint32_t)data[p] >> (8 - to.bit), to.bit);
}

// The category (bits of magnitude) of a DC difference, 16 when baseline cannot code it.
static int ix_category(int v) {
    int magnitude = v < 0 ? -v : v, n = 0;
    while (magnitude && n < 16) magnitude >>= 1, n++;
    return magnitude ? 16 : n;
}

// Whether row r's first DC differences, made absolute, have codes in their tables: an
// optimised table holds only the categories the file used.
static int ix_codable(const struct cjpeg_index *ix, int r) {
    for (int c = 0; c < ix->ncomp; c++) {
        int cat = ix_category(ix->rows[r].dc_diff[c] + ix->rows[r].pred[c]);
        if (cat > 15 || !ix->dc[ix->dc_table[c]].size_of[cat]) return 0;
    }
    return 1;
}

// Row r's entropy bits up to `to`, its first DC differences made absolute.
static void ix_rows_rebased(ix_writer *w, const struct cjpeg_index *ix, const uint8_t *data, int r, ix_pos to) {
    const ix_row *row = &ix->rows[r];
    ix_pos at = row->start;
    for (int c = 0; c < ix->ncomp; c++) {
        ix_copy_bits(w, data, ix->size, at, row->dc[c]);
        int value = row->dc_diff[c] + row->pred[c], cat = ix_category(value);
        const ix_huff *t = &ix->dc[ix->dc_table[c]];
        ix_put(w, t->code_of[cat], t->size_of[cat]);
        if (cat) ix_put(w, (uint32_t)(value < 0 ? value - 1 : value), cat);
        // Past the original code and extra bits.
        long bit = (long)row->dc[c].bit + row->dc_bits[c];
        at.off = row->dc[c].off;
        while (bit >= 8 && at.off < ix->size) {
            at.off += data[at.off] == 0xFF ? 2 : 1;
            bit -= 8;
        }
        at.bit = (int)bit;
    }
    ix_copy_bits(w, data, ix->size, at, to);
}

// The first row a splice wanted from `first` can start at: a restart boundary at or above
// it when the file has restart markers; else `first` or a little above, where the table
// has codes for the new DC differences; -1 if none is near.
static int ix_start_row(const struct cjpeg_index *ix, int first) {
    int r = first;
    if (ix->restart_interval) {
        while (r > 0 && !ix->rows[r].restart) r--;
        return r;
    }
    for (; r >= 0 && r >= first - 16; r--)
        if (ix_codable(ix, r)) return r;
    return -1;
}

uint8_t *cjpeg_index_splice(const cjpeg_index *ix, const uint8_t *data, size_t size, int first, int end,
                            int *start, size_t *length) {
    *length = 0;
    *start = 0;
    if (!ix || !data || size != ix->size || first < 0 || first >= end || end > ix->mcu_rows) return NULL;
    int r = ix_start_row(ix, first);
    if (r < 0) return NULL;
    int row_height = cjpeg_index_row_height(ix);
    long rows_height = (long)end * row_height;
    if (rows_height > ix->height) rows_height = ix->height;
    rows_height -= (long)r * row_height;
    ix_writer w = {0};
    for (size_t i = 0; i < ix->header_end; i++) ix_byte(&w, data[i]);
    if (w.failed || ix->height_at + 1 >= w.length) {
        free(w.bytes);
        return NULL;
    }
    w.bytes[ix->height_at] = (uint8_t)(rows_height >> 8);
    w.bytes[ix->height_at + 1] = (uint8_t)rows_height;
    if (ix->restart_interval) {
        ix_copy_bytes(&w, data, size, ix->rows[r].start, ix->rows[end].start);
    } else {
        ix_rows_rebased(&w, ix, data, r, ix->rows[end].start);
    }
    // The last byte filled with 1-bits, as an encoder pads it, and the end of the picture.
    if (w.nbits) ix_put(&w, 0xFF, 8 - w.nbits);
    ix_byte(&w, 0xFF);
    ix_byte(&w, 0xD9);
    if (w.failed) {
        free(w.bytes);
        return NULL;
    }
    *start = r;
    *length = w.length;
    return w.bytes;
}
