#include "cjpeg.h"
#include "cjpeg_index_private.h"

#include <stdlib.h>
#include <string.h>

// A few MCU rows of an indexed JPEG cut out as a JPEG of their own, which libjpeg decodes
// as it would the whole file: the header as it was (its height made the rows'), the rows'
// entropy bits copied, and the first DC difference of each component made absolute, since a
// new scan starts its predictors at 0.

void ix_byte(ix_writer *w, uint8_t b) {
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
void ix_put(ix_writer *w, uint32_t value, int n) {
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
int ix_category(int v) {
    int magnitude = v < 0 ? -v : v, n = 0;
    while (magnitude && n < 16) magnitude >>= 1, n++;
    return magnitude ? 16 : n;
}

// Whether row r's first DC differences, coded again against the predictors `base` (NULL:
// 0, as a new scan starts), have codes in their tables: an optimised table holds only the
// categories the file used.
static int ix_codable(const struct cjpeg_index *ix, int r, const int *base) {
    for (int c = 0; c < ix->ncomp; c++) {
        int cat = ix_category(ix->rows[r].dc_diff[c] + ix->rows[r].pred[c] - (base ? base[c] : 0));
        if (cat > 15 || !ix->dc[ix->dc_table[c]].size_of[cat]) return 0;
    }
    return 1;
}

// Row r's entropy bits up to `to`, its first DC differences coded again against the
// predictors `base` (NULL: made absolute).
static void ix_rows_rebased(ix_writer *w, const struct cjpeg_index *ix, const uint8_t *data, int r, ix_pos to,
                            const int *base) {
    const ix_row *row = &ix->rows[r];
    ix_pos at = row->start;
    for (int c = 0; c < ix->ncomp; c++) {
        ix_copy_bits(w, data, ix->size, at, row->dc[c]);
        int value = row->dc_diff[c] + row->pred[c] - (base ? base[c] : 0), cat = ix_category(value);
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

// How a priming row moves one component's DC predictor from 0 to a target with only the
// categories its table has codes for: the first `count` blocks take `terms`, the rest 0
// (or, with no code for 0, +filler and -filler in turn).
typedef struct {
    int terms[256];
    int count;
    int filler;
} ix_plan;

static int ix_has(const ix_huff *t, int cat) { return cat >= 0 && cat <= 15 && t->size_of[cat]; }

// A plan over `blocks` blocks reaching `target`; 0 when the table's categories cannot.
static int ix_plan_diffs(const ix_huff *t, int target, long blocks, ix_plan *p) {
    p->count = 0;
    p->filler = 0;
    int r = target;
    while (r != 0) {
        if (p->count + 2 > 256) return 0;
        int mag = r < 0 ? -r : r, sign = r < 0 ? -1 : 1, k = 15;
        while (k >= 1 && !(ix_has(t, k) && (1 << (k - 1)) <= mag)) k--;
        if (k >= 1) {
            int step = mag < (1 << k) - 1 ? mag : (1 << k) - 1;
            p->terms[p->count++] = sign * step;
            r -= sign * step;
            continue;
        }
        // Every category the table has is for larger numbers: one step past, one back.
        for (k = 2; k <= 15 && !ix_has(t, k); k++) {}
        if (k > 15) return 0;
        p->terms[p->count++] = sign * ((1 << k) - 1);
        p->terms[p->count++] = -sign * ((1 << k) - 1 - mag);
        r = 0;
    }
    long rest = blocks - p->count;
    if (rest < 0) return 0;
    if (rest == 0 || ix_has(t, 0)) return 1;
    int k = 1;
    while (k <= 15 && !ix_has(t, k)) k++;
    if (k > 15 || rest % 2) return 0;
    p->filler = 1 << (k - 1);
    return 1;
}

// Blocks of component c in one MCU.
static int ix_blocks(const struct cjpeg_index *ix, int c) { return ix->ncomp == 1 ? 1 : ix->h[c] * ix->v[c]; }

// `count` MCUs of flat blocks (DC only, every AC at end-of-block) whose DC differences
// follow `plans`, one a component.
static void ix_flat_mcus(ix_writer *w, const struct cjpeg_index *ix, const ix_plan plans[], long count) {
    long used[IX_MAX_COMPONENTS] = {0};
    for (long m = 0; m < count; m++) {
        for (int c = 0; c < ix->ncomp; c++) {
            const ix_huff *dc = &ix->dc[ix->dc_table[c]], *ac = &ix->ac[ix->ac_table[c]];
            const ix_plan *p = &plans[c];
            for (int b = 0; b < ix_blocks(ix, c); b++) {
                long i = used[c]++;
                int d = i < p->count ? p->terms[i] : (i - p->count) % 2 ? -p->filler : p->filler;
                int cat = ix_category(d);
                ix_put(w, dc->code_of[cat], dc->size_of[cat]);
                if (cat) ix_put(w, (uint32_t)(d < 0 ? d - 1 : d), cat);
                ix_put(w, ac->code_of[0], ac->size_of[0]);
            }
        }
    }
}

// Plans over `mcus` MCUs moving each component's predictor by `by`; 0 when the tables
// cannot code them (no end-of-block code, or not the categories).
static int ix_plan_mcus(const struct cjpeg_index *ix, const int by[], long mcus, ix_plan plans[]) {
    for (int c = 0; c < ix->ncomp; c++) {
        if (!ix->ac[ix->ac_table[c]].size_of[0] ||
            !ix_plan_diffs(&ix->dc[ix->dc_table[c]], by[c], mcus * ix_blocks(ix, c), &plans[c]))
            return 0;
    }
    return 1;
}

// A row of flat blocks whose DC differences add up to the predictors before row r. An
// optimised DC table often has no code for a row's DC value in one step; decoded first and
// thrown away, this row brings a new scan's predictors to the file's instead. 0 when the
// tables cannot code it.
static int ix_prime(ix_writer *w, const struct cjpeg_index *ix, int r) {
    ix_plan plans[IX_MAX_COMPONENTS];
    if (!ix_plan_mcus(ix, ix->rows[r].pred, ix->mcus_per_row, plans)) return 0;
    ix_flat_mcus(w, ix, plans, ix->mcus_per_row);
    return 1;
}

// The file's markers up to its scan, as they were but for the frame's size; 0 (and nothing
// held) without memory or a frame header to change.
static int ix_header(ix_writer *w, const struct cjpeg_index *ix, const uint8_t *data, long height, long width) {
    for (size_t i = 0; i < ix->header_end; i++) ix_byte(w, data[i]);
    if (w->failed || ix->height_at + 3 >= w->length) {
        free(w->bytes);
        return 0;
    }
    w->bytes[ix->height_at] = (uint8_t)(height >> 8);
    w->bytes[ix->height_at + 1] = (uint8_t)height;
    w->bytes[ix->height_at + 2] = (uint8_t)(width >> 8);
    w->bytes[ix->height_at + 3] = (uint8_t)width;
    return 1;
}

// The piece ended: its last byte filled with 1-bits, as an encoder pads it, and the end of
// the picture; its bytes and length, or NULL (and nothing held) when it could not be made.
static uint8_t *ix_finish(ix_writer *w, size_t *length) {
    if (w->nbits) ix_put(w, 0xFF, 8 - w->nbits);
    ix_byte(w, 0xFF);
    ix_byte(w, 0xD9);
    if (w->failed) {
        free(w->bytes);
        return NULL;
    }
    *length = w->length;
    return w->bytes;
}

uint8_t *cjpeg_index_splice(const cjpeg_index *ix, const uint8_t *data, size_t size, int first, int end,
                            int *start, size_t *length) {
    *length = 0;
    *start = 0;
    if (!ix || !data || size != ix->size || first < 0 || first >= end || end > ix->mcu_rows) return NULL;
    // A file with restart markers is cut at the boundary at or above the row; one without,
    // at the row, its first DC values coded anew, or after a priming row when they cannot be.
    int r = first, primed = 0;
    if (ix->restart_interval) {
        while (r > 0 && !ix->rows[r].restart) r--;
    } else {
        primed = !ix_codable(ix, r, NULL);
    }
    int row_height = cjpeg_index_row_height(ix);
    long rows_height = (long)end * row_height;
    if (rows_height > ix->height) rows_height = ix->height;
    rows_height -= (long)(r - primed) * row_height;
    ix_writer w = {0};
    if (!ix_header(&w, ix, data, rows_height, ix->width)) return NULL;
    if (ix->restart_interval) {
        ix_copy_bytes(&w, data, size, ix->rows[r].start, ix->rows[end].start);
    } else if (!primed) {
        ix_rows_rebased(&w, ix, data, r, ix->rows[end].start, NULL);
    } else if (ix_prime(&w, ix, r)) {
        ix_copy_bits(&w, data, size, ix->rows[r].start, ix->rows[end].start);
    } else {
        w.failed = 1;
    }
    uint8_t *made = ix_finish(&w, length);
    if (made) *start = r - primed;
    return made;
}

// Where MCU m of row r starts and the predictors before it, for m a multiple of the marks'
// step or the row's end (the next row's start, the predictors after the row).
static ix_pos ix_mark_at(const struct cjpeg_index *ix, int r, int m) {
    return m >= ix->mcus_per_row ? ix->rows[r + 1].start : ix->marks[(size_t)r * ix->marks_per_row + m / ix->column_step].at;
}

static const int *ix_mark_pred(const struct cjpeg_index *ix, int r, int m) {
    return m >= ix->mcus_per_row ? ix->rows[r + 1].pred : ix->marks[(size_t)r * ix->marks_per_row + m / ix->column_step].pred;
}

// What row r of a piece of columns [m0, m1) must move the predictors by in its flat MCUs:
// from where the piece's row above left them (0 at its first row) to the file's before m0.
static void ix_area_step(const struct cjpeg_index *ix, int first, int r, int m0, int m1, int by[]) {
    const int *want = ix_mark_pred(ix, r, m0), *left = r > first ? ix_mark_pred(ix, r - 1, m1) : NULL;
    for (int c = 0; c < ix->ncomp; c++) by[c] = want[c] - (left ? left[c] : 0);
}

uint8_t *cjpeg_index_splice_area(const cjpeg_index *ix, const uint8_t *data, size_t size, int first, int end,
                                 int column, int column_end, int *left, size_t *length) {
    *length = 0;
    *left = 0;
    if (!ix || !data || size != ix->size || !ix->marks || first < 0 || first >= end || end > ix->mcu_rows ||
        column < 0 || column >= column_end || column_end > ix->mcus_per_row)
        return NULL;
    int step = ix->column_step, m0 = column / step * step, m1 = (column_end + step - 1) / step * step;
    if (m1 > ix->mcus_per_row) m1 = ix->mcus_per_row;
    if (m0 == 0 && m1 == ix->mcus_per_row) return NULL;  // the whole width: cut by rows
    // As few flat MCUs at the left of every row as its predictors' journey needs. At the
    // picture's left edge there may be none, whose chroma the edge's upsampling would read:
    // each row's first DC differences are coded again instead.
    long prime = 0;
    ix_plan plans[IX_MAX_COMPONENTS];
    for (int r = first; r < end && m0 == 0; r++) {
        if (!ix_codable(ix, r, r > first ? ix_mark_pred(ix, r - 1, m1) : NULL)) return NULL;
    }
    for (long k = 1; k <= 64 && m0 > 0 && !prime; k++) {
        int fits = 1;
        for (int r = first; r < end && fits; r++) {
            int by[IX_MAX_COMPONENTS];
            ix_area_step(ix, first, r, m0, m1, by);
            fits = ix_plan_mcus(ix, by, k, plans);
        }
        if (fits) prime = k;
    }
    if (m0 > 0 && !prime) return NULL;
    int mw = cjpeg_index_column_width(ix), row_height = cjpeg_index_row_height(ix);
    long height = (long)end * row_height;
    if (height > ix->height) height = ix->height;
    height -= (long)first * row_height;
    long width = (m1 == ix->mcus_per_row ? ix->width - (long)m0 * mw : (long)(m1 - m0) * mw) + prime * mw;
    if (width > 65535) return NULL;
    ix_writer w = {0};
    if (!ix_header(&w, ix, data, height, width)) return NULL;
    for (int r = first; r < end && !w.failed && m0 == 0; r++) {
        ix_rows_rebased(&w, ix, data, r, ix_mark_at(ix, r, m1), r > first ? ix_mark_pred(ix, r - 1, m1) : NULL);
    }
    for (int r = first; r < end && !w.failed && m0 > 0; r++) {
        int by[IX_MAX_COMPONENTS];
        ix_area_step(ix, first, r, m0, m1, by);
        if (!ix_plan_mcus(ix, by, prime, plans)) w.failed = 1;
        ix_flat_mcus(&w, ix, plans, prime);
        ix_copy_bits(&w, data, size, ix_mark_at(ix, r, m0), ix_mark_at(ix, r, m1));
    }
    uint8_t *made = ix_finish(&w, length);
    if (made) *left = m0 - (int)prime;
    return made;
}
