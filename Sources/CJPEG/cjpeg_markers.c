#include "cjpeg.h"
#include "cjpeg_index_private.h"

#include <string.h>

// The markers of a JPEG up to its scan, read for the entropy index: the frame's size and
// sampling, the Huffman tables, the restart interval and the scan's components. Whatever
// the index does not cover (progressive, arithmetic, 12-bit, several scans) is refused here,
// before any entropy data is read. Every length is checked against the bytes there are.

// Canonical codes from the DHT's counts, as JPEG's annex C assigns them: decoding needs
// the largest code of each length, re-encoding a DC category needs its code.
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

size_t ix_be16(const uint8_t *p) { return (size_t)p[0] << 8 | p[1]; }

// A DHT segment: one or more tables, each checked as libjpeg checks it.
cjpeg_status ix_dht(struct cjpeg_index *ix, const uint8_t *seg, size_t n) {
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
cjpeg_status ix_sof(struct cjpeg_index *ix, const uint8_t *seg, size_t n, int ids[]) {
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
cjpeg_status ix_markers(struct cjpeg_index *ix, const uint8_t *d, size_t size) {
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
