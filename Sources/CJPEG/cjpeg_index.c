#include "cjpeg.h"
#include "cjpeg_index_private.h"

#include <stdlib.h>
#include <string.h>

// The entropy index: the markers of a baseline JPEG read, then its one scan walked MCU by
// MCU with our own Huffman decoder, noting where every MCU row starts. Every byte read is
// bounds-checked: the file may be anything a user or a web page hands the viewer.

int ix_huff_build(ix_huff *t, const uint8_t counts[16], const uint8_t *values, int is_dc) {
    memset(t, 0, sizeof *t);
    int total = 0;
    for (int l = 0; l < 16; l++) total += counts[l];
    if (total == 0 || total > 256) return 0;
    memcpy(t->values, values, (size_t)total);
    t->count = total;
    int32_t code = 0;
    int k = 0;
    for (int l = 1; l <= 16; l++) {
        t->valoffset[l] = k - code;
        for (int i = 0; i < counts[l - 1]; i++, k++, code++) {
            uint8_t sym = values[k];
            // More codes of this length than it holds (libjpeg refuses the all-ones code too).
            if (code >= (1 << l) - 1 || (is_dc && sym > 15)) return 0;
            if (t->size_of[sym] == 0) {
                t->size_of[sym] = (uint8_t)l;
                t->code_of[sym] = (uint16_t)code;
            }
            if (l <= IX_LOOKAHEAD) {
                int shift = IX_LOOKAHEAD - l;
                for (int j = 0; j < (1 << shift); j++) {
                    t->look_len[(code << shift) + j] = (uint8_t)l;
                    t->look_sym[(code << shift) + j] = sym;
                }
            }
        }
        t->maxcode[l] = counts[l - 1] ? code - 1 : -1;
        code <<= 1;
    }
    t->maxcode[17] = INT32_MAX;
    t->defined = 1;
    return 1;
}

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

static void ix_fill(ix_reader *r) {
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
static int ix_bits(ix_reader *r, int n) {
    if (n == 0) return 0;
    if (r->nbits < n) ix_fill(r);
    if (r->nbits < n) return -1;
    int v = (int)(r->acc >> (64 - n));
    r->acc <<= n;
    r->nbits -= n;
    return v;
}

// One Huffman symbol, or -1 for a code not in the table or data that ends first.
static int ix_decode(ix_reader *r, const ix_huff *t) {
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
static int ix_extend(int bits, int n) { return n == 0 ? 0 : bits < (1 << (n - 1)) ? bits - (1 << n) + 1 : bits; }

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
static int ix_restart(ix_reader *r, int number) {
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
            if (!ix_mcu(ix, &r, pred, mark)) return 0;
        }
    }
    ix->rows[ix->mcu_rows].start = ix_where(&r);
    return 1;
}

static size_t ix_be16(const uint8_t *p) { return (size_t)p[0] << 8 | p[1]; }

// A DHT segment: one or more tables, each checked as libjpeg checks it.
static cjpeg_status ix_dht(struct cjpeg_index *ix, const uint8_t *seg, size_t n) {
    while (n > 0) {
        if (n < 17) return CJPEG_FAILED;
        int cls = seg[0] >> 4, id = seg[0] & 15;
        if (cls > 1 || id > 3) return CJPEG_FAILED;
        size_t total = 0;
        for (int l = 0; l < 16; l++) total += seg[1 + l];
        if (total > 256 || n < 17 + total) return CJPEG_FAILED;
        if (!ix_huff_build(cls ? &ix->ac[id] : &ix->dc[id], seg + 1, seg + 17, !cls)) return CJPEG_FAILED;
        seg += 17 + total;
        n -= 17 + total;
    }
    return CJPEG_OK;
}

// The frame header: 8-bit samples, up to four components sampled 1 to 4 times.
static cjpeg_status ix_sof(struct cjpeg_index *ix, const uint8_t *seg, size_t n, int ids[]) {
    if (n < 6) return CJPEG_FAILED;
    if (seg[0] != 8) return CJPEG_UNSUPPORTED;
    ix->height = (int)ix_be16(seg + 1);
    ix->width = (int)ix_be16(seg + 3);
    ix->ncomp = seg[5];
    // A height of 0 is given later by a DNL marker, which the splice cannot patch.
    if (ix->height == 0 || ix->ncomp > IX_MAX_COMPONENTS) return CJPEG_UNSUPPORTED;
    if (ix->width == 0 || ix->ncomp == 0 || n < 6 + 3 * (size_t)ix->ncomp) return CJPEG_FAILED;
    for (int c = 0; c < ix->ncomp; c++) {
        ids[c] = seg[6 + 3 * c];
        ix->h[c] = seg[7 + 3 * c] >> 4;
        ix->v[c] = seg[7 + 3 * c] & 15;
        if (ix->h[c] < 1 || ix->h[c] > 4 || ix->v[c] < 1 || ix->v[c] > 4) return CJPEG_FAILED;
    }
    return CJPEG_OK;
}

// The scan header: all components in one baseline scan, put in the scan's order.
static cjpeg_status ix_sos(struct cjpeg_index *ix, const uint8_t *seg, size_t n, const int ids[]) {
    if (ix->ncomp == 0 || n < 1) return CJPEG_FAILED;
    int ns = seg[0];
    if (ns != ix->ncomp) return CJPEG_UNSUPPORTED;
    if (n < 4 + 2 * (size_t)ns) return CJPEG_FAILED;
    const uint8_t *tail = seg + 1 + 2 * ns;
    if (tail[0] != 0 || tail[1] != 63 || tail[2] != 0) return CJPEG_UNSUPPORTED;
    int h[IX_MAX_COMPONENTS], v[IX_MAX_COMPONENTS], used = 0, blocks = 0;
    for (int s = 0; s < ns; s++) {
        int c = 0;
        while (c < ix->ncomp && ids[c] != seg[1 + 2 * s]) c++;
        if (c == ix->ncomp || (used & 1 << c)) return CJPEG_FAILED;
        used |= 1 << c;
        h[s] = ix->h[c], v[s] = ix->v[c];
        ix->dc_table[s] = seg[2 + 2 * s] >> 4;
        ix->ac_table[s] = seg[2 + 2 * s] & 15;
        if (ix->dc_table[s] > 3 || ix->ac_table[s] > 3 || !ix->dc[ix->dc_table[s]].defined ||
            !ix->ac[ix->ac_table[s]].defined)
            return CJPEG_FAILED;
        blocks += h[s] * v[s];
    }
    // One component alone is coded block by block; with its own sampling, libjpeg's row of
    // MCUs would be several rows of blocks, which the splice does not cut.
    if (ns == 1 && (h[0] != 1 || v[0] != 1)) return CJPEG_UNSUPPORTED;
    if (ns > 1 && blocks > 10) return CJPEG_FAILED;
    memcpy(ix->h, h, sizeof h);
    memcpy(ix->v, v, sizeof v);
    return CJPEG_OK;
}

// The segment of marker m, of n bytes at seg; CJPEG_OK to read on.
static cjpeg_status ix_segment(struct cjpeg_index *ix, int m, const uint8_t *seg, size_t n, int ids[]) {
    if (m == 0xC0 || m == 0xC1) return ix->ncomp ? CJPEG_FAILED : ix_sof(ix, seg, n, ids);
    // Progressive, lossless, hierarchical and arithmetic coding: libjpeg alone.
    if ((m >= 0xC2 && m <= 0xCF && m != 0xC4 && m != 0xC8) || m == 0xDC) return CJPEG_UNSUPPORTED;
    if (m == 0xC4) return ix_dht(ix, seg, n);
    if (m == 0xDD) {
        if (n < 2) return CJPEG_FAILED;
        ix->restart_interval = (int)ix_be16(seg);
    }
    return CJPEG_OK;
}

// Reads markers up to the first scan; the tables and sizes land in ix.
static cjpeg_status ix_markers(struct cjpeg_index *ix, const uint8_t *d, size_t size) {
    int ids[IX_MAX_COMPONENTS] = {0};
    if (size < 4 || d[0] != 0xFF || d[1] != 0xD8) return CJPEG_FAILED;
    size_t p = 2;
    for (;;) {
        if (p >= size || d[p] != 0xFF) return CJPEG_FAILED;
        while (p < size && d[p] == 0xFF) p++;
        if (p + 2 >= size) return CJPEG_FAILED;
        int m = d[p++];
        // A picture with no scan, or a marker with no length where a segment must be.
        if (m == 0xD9 || m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7)) return CJPEG_FAILED;
        size_t len = ix_be16(d + p);
        if (len < 2 || len > size - p) return CJPEG_FAILED;
        if (m == 0xDA) {
            cjpeg_status s = ix_sos(ix, d + p + 2, len - 2, ids);
            ix->header_end = p + len;
            return s;
        }
        if ((m == 0xC0 || m == 0xC1) && !ix->ncomp) ix->height_at = p + 3;
        cjpeg_status s = ix_segment(ix, m, d + p + 2, len - 2, ids);
        if (s != CJPEG_OK) return s;
        p += len;
    }
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
    free(ix);
}

int cjpeg_index_row_height(const cjpeg_index *ix) { return ix->ncomp == 1 ? 8 : 8 * ix->vmax; }

int cjpeg_index_rows(const cjpeg_index *ix) { return ix->mcu_rows; }
