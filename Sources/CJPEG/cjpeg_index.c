#include "cjpeg.h"
#include "cjpeg_index_private.h"

#include <stdlib.h>
#include <string.h>

// The entropy index: the markers of a baseline JPEG read (cjpeg_markers.c), then its one
// scan walked MCU by MCU with our own Huffman decoder, noting where every MCU row starts.
// Every byte read is bounds-checked: the file may be anything a user or a web page hands
// the viewer.

// Past any DC value a picture holds: a scan whose predictors go beyond has no index.
#define IX_DC_LIMIT (1 << 20)

// Reads ahead into the word, up to a marker or the end.
void ix_fill(ix_reader *r) {
    while (r->nbits <= 56 && r->pos < r->size) {
        uint8_t b = r->data[r->pos];
        if (b == 0xFF) {
            if (r->pos + 1 >= r->size || r->data[r->pos + 1] != 0) return;  // a marker
            r->pos += 2;
        } else {
            r->pos++;
        }
        r->acc |= (uint64_t)b << (56 - r->nbits);
        r->nbits += 8;
        r->filled++;
    }
}

// The next n bits (n <= 16) as a number, or -1 when the data ends first.
int ix_bits(ix_reader *r, int n) {
    if (n == 0) return 0;
    if (r->nbits < n) ix_fill(r);
    if (r->nbits < n) return -1;
    int v = (int)(r->acc >> (64 - n));
    r->acc <<= n;
    r->nbits -= n;
    return v;
}

// One Huffman symbol, or -1 for a code not in the table or data that ends first.
int ix_decode(ix_reader *r, const ix_huff *t) {
    if (r->nbits < 16) ix_fill(r);
    int l = t->look_len[r->acc >> (64 - IX_LOOKAHEAD)];
    if (l) {
        if (l > r->nbits) return -1;
        int sym = t->look_sym[r->acc >> (64 - IX_LOOKAHEAD)];
        r->acc <<= l;
        r->nbits -= l;
        return sym;
    }
    int32_t code16 = (int32_t)(r->acc >> 48);
    for (l = IX_LOOKAHEAD + 1; l <= 16; l++) {
        int32_t c = code16 >> (16 - l);
        if (c <= t->maxcode[l]) {
            int32_t i = c + t->valoffset[l];
            if (l > r->nbits || i < 0 || i >= t->count) return -1;
            r->acc <<= l;
            r->nbits -= l;
            return t->values[i];
        }
    }
    return -1;
}

// Where the next unread bit is in the file: back from the read position over the bytes
// still in the word, stepping over stuffed zeros.
static ix_pos ix_where(const ix_reader *r) {
    size_t back = (size_t)(r->nbits + 7) / 8;
    size_t p = r->pos;
    for (size_t i = 0; i < back && p > 0; i++) {
        p--;
        if (r->data[p] == 0 && p > 0 && r->data[p - 1] == 0xFF) p--;
    }
    ix_pos where = {p, (8 - r->nbits % 8) % 8};
    return where;
}

// The value an n-bit extra field codes (JPEG's EXTEND).
int ix_extend(int bits, int n) { return n == 0 ? 0 : bits < (1 << (n - 1)) ? bits - (1 << n) + 1 : bits; }

// One 8x8 block: its DC difference into *diff, the AC symbols walked as libjpeg walks them.
static int ix_block(ix_reader *r, const ix_huff *dc, const ix_huff *ac, int *diff, int *dc_bits) {
    long before = (long)r->filled * 8 - r->nbits;
    int s = ix_decode(r, dc);
    if (s < 0 || s > 15) return 0;
    int bits = ix_bits(r, s);
    if (bits < 0) return 0;
    *diff = ix_extend(bits, s);
    *dc_bits = (int)((long)r->filled * 8 - r->nbits - before);
    for (int k = 1; k < 64; k++) {
        int rs = ix_decode(r, ac);
        if (rs < 0) return 0;
        int run = rs >> 4, size = rs & 15;
        if (size) {
            k += run;
            if (ix_bits(r, size) < 0) return 0;
        } else {
            if (run != 15) break;
            k += 15;
        }
    }
    return 1;
}

// Past a restart marker: the padding of the byte before dropped, the marker's number checked.
int ix_restart(ix_reader *r, int number) {
    r->nbits -= r->nbits % 8;
    if (r->nbits) return 0;  // whole bytes left before the marker: corrupt
    if (r->pos + 1 >= r->size || r->data[r->pos] != 0xFF || r->data[r->pos + 1] != 0xD0 + (number & 7)) return 0;
    r->pos += 2;
    r->acc = 0;
    r->filled = 0;
    return 1;
}

// One MCU; at the first of a row, where each component's first DC difference is coded.
static int ix_mcu(struct cjpeg_index *ix, ix_reader *r, int pred[], ix_row *mark) {
    for (int c = 0; c < ix->ncomp; c++) {
        int blocks = ix->ncomp == 1 ? 1 : ix->h[c] * ix->v[c];
        const ix_huff *dc = &ix->dc[ix->dc_table[c]], *ac = &ix->ac[ix->ac_table[c]];
        for (int b = 0; b < blocks; b++) {
            int diff = 0, dc_bits = 0;
            if (mark && b == 0) mark->dc[c] = ix_where(r);
            if (!ix_block(r, dc, ac, &diff, &dc_bits)) return 0;
            pred[c] += diff;
            // An 8-bit picture's DC values are a few thousand at most; a crafted scan can push
            // the sum past an int, which libjpeg refuses and the cut's arithmetic must not meet.
            if (pred[c] > IX_DC_LIMIT || pred[c] < -IX_DC_LIMIT) return 0;
            if (mark && b == 0) mark->dc_diff[c] = diff, mark->dc_bits[c] = dc_bits;
        }
    }
    return 1;
}

// Walks the whole scan, noting each MCU row's start; 0 when the data is corrupt or short.
static int ix_walk(struct cjpeg_index *ix, const uint8_t *data, size_t size) {
    ix_reader r = {data, size, ix->header_end, 0, 0, 0};
    int pred[IX_MAX_COMPONENTS] = {0};
    long mcu = 0;
    int restarts = 0;
    for (int row = 0; row < ix->mcu_rows; row++) {
        for (int col = 0; col < ix->mcus_per_row; col++, mcu++) {
            int at_restart = ix->restart_interval && mcu > 0 && mcu % ix->restart_interval == 0;
            if (at_restart) {
                if (!ix_restart(&r, restarts++)) return 0;
                memset(pred, 0, sizeof pred);
            }
            ix_row *mark = col == 0 ? &ix->rows[row] : NULL;
            if (mark) {
                mark->start = ix_where(&r);
                mark->restart = mcu == 0 || at_restart;
                memcpy(mark->pred, pred, sizeof pred);
            }
            if (ix->marks && col % ix->column_step == 0) {
                ix_mark *m = &ix->marks[(size_t)row * ix->marks_per_row + col / ix->column_step];
                m->at = mark ? mark->start : ix_where(&r);
                memcpy(m->pred, pred, sizeof pred);
            }
            if (!ix_mcu(ix, &r, pred, mark)) return 0;
        }
    }
    ix->rows[ix->mcu_rows].start = ix_where(&r);
    memcpy(ix->rows[ix->mcu_rows].pred, pred, sizeof pred);
    return 1;
}


cjpeg_index *cjpeg_index_build(const uint8_t *data, size_t size, cjpeg_status *status) {
    struct cjpeg_index *ix = calloc(1, sizeof *ix);
    if (!ix) {
        *status = CJPEG_FAILED;
        return NULL;
    }
    cjpeg_status s = data ? ix_markers(ix, data, size) : CJPEG_FAILED;
    if (s == CJPEG_OK) {
        ix->size = size;
        for (int c = 0; c < ix->ncomp; c++) {
            if (ix->h[c] > ix->hmax) ix->hmax = ix->h[c];
            if (ix->v[c] > ix->vmax) ix->vmax = ix->v[c];
        }
        int mw = 8 * (ix->ncomp == 1 ? 1 : ix->hmax), mh = 8 * (ix->ncomp == 1 ? 1 : ix->vmax);
        ix->mcus_per_row = (ix->width + mw - 1) / mw;
        ix->mcu_rows = (ix->height + mh - 1) / mh;
        ix->rows = calloc((size_t)ix->mcu_rows + 1, sizeof *ix->rows);
        // Restart markers reset the predictors and pad to a byte: cut by rows only there.
        if (!ix->restart_interval) {
            ix->column_step = IX_COLUMN_STEP;
            while ((size_t)ix->mcu_rows * ((ix->mcus_per_row + ix->column_step - 1) / ix->column_step) *
                       sizeof *ix->marks > IX_MARKS_BUDGET)
                ix->column_step *= 2;
            ix->marks_per_row = (ix->mcus_per_row + ix->column_step - 1) / ix->column_step;
            ix->marks = calloc((size_t)ix->mcu_rows * ix->marks_per_row, sizeof *ix->marks);
            if (!ix->marks) ix->marks_per_row = 0;
        }
        if (!ix->rows || !ix_walk(ix, data, size)) s = CJPEG_FAILED;
    }
    *status = s;
    if (s != CJPEG_OK) {
        cjpeg_index_free(ix);
        return NULL;
    }
    return ix;
}

void cjpeg_index_free(cjpeg_index *ix) {
    if (!ix) return;
    free(ix->rows);
    free(ix->marks);
    free(ix);
}

int cjpeg_index_row_height(const cjpeg_index *ix) { return ix->ncomp == 1 ? 8 : 8 * ix->vmax; }

int cjpeg_index_rows(const cjpeg_index *ix) { return ix->mcu_rows; }

int cjpeg_index_column_width(const cjpeg_index *ix) { return ix->ncomp == 1 ? 8 : 8 * ix->hmax; }

int cjpeg_index_columns(const cjpeg_index *ix) { return ix->mcus_per_row; }
