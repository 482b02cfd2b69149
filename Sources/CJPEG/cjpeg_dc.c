#include "cjpeg.h"
#include "cjpeg_index_private.h"

#include <stdlib.h>
#include <string.h>

// A progressive JPEG too large for the pixel budget, shown fitted from its DC scans alone.
// libjpeg keeps every coefficient of a progressive file at full size whatever the scale it
// decodes at (600 MB for 200 MP), where an eighth-size picture is made of each block's DC
// only. The DC scans are read here with the index's Huffman reader, and written again as a
// baseline JPEG of the same size whose blocks hold their DC and nothing else: libjpeg decodes
// that a row at a time, and at an eighth it gives the picture the DC scans describe. Every
// byte read is bounds-checked: the file may be anything a web page hands the viewer.

// More blocks than this (128 MiB of DC values) and the file is left to libjpeg, which refuses it.
#define DC_MAX_BLOCKS (64L << 20)

typedef struct {
    struct cjpeg_index f;                 // the frame's size and sampling; the DC tables as scans find them
    int ids[IX_MAX_COMPONENTS];
    int h[IX_MAX_COMPONENTS], v[IX_MAX_COMPONENTS];  // sampling as the MCUs use it (1 for one component)
    long bw[IX_MAX_COMPONENTS], bh[IX_MAX_COMPONENTS];  // blocks across and down, MCUs' padding included
    int16_t *dc[IX_MAX_COMPONENTS];
} dc_picture;

static void dc_free(dc_picture *p) {
    for (int c = 0; c < IX_MAX_COMPONENTS; c++) free(p->dc[c]);
}

// The MCU grid of the frame just read, and room for every block's DC; 0 without memory or
// for more blocks than DC_MAX_BLOCKS.
static int dc_frame(dc_picture *p) {
    struct cjpeg_index *f = &p->f;
    for (int c = 0; c < f->ncomp; c++) {
        p->h[c] = f->ncomp == 1 ? 1 : f->h[c];
        p->v[c] = f->ncomp == 1 ? 1 : f->v[c];
        if (p->h[c] > f->hmax) f->hmax = p->h[c];
        if (p->v[c] > f->vmax) f->vmax = p->v[c];
    }
    f->mcus_per_row = (f->width + 8 * f->hmax - 1) / (8 * f->hmax);
    f->mcu_rows = (f->height + 8 * f->vmax - 1) / (8 * f->vmax);
    long total = 0;
    for (int c = 0; c < f->ncomp; c++) {
        p->bw[c] = (long)f->mcus_per_row * p->h[c];
        p->bh[c] = (long)f->mcu_rows * p->v[c];
        total += p->bw[c] * p->bh[c];
    }
    if (total > DC_MAX_BLOCKS) return 0;
    for (int c = 0; c < f->ncomp; c++) {
        p->dc[c] = calloc((size_t)(p->bw[c] * p->bh[c]), sizeof *p->dc[c]);
        if (!p->dc[c]) return 0;
    }
    return 1;
}

// Where the entropy data starting at `p` ends: the next marker other than a restart.
static size_t dc_scan_end(const uint8_t *data, size_t size, size_t p) {
    for (; p + 1 < size; p++) {
        if (data[p] == 0xFF && data[p + 1] != 0 && !(data[p + 1] >= 0xD0 && data[p + 1] <= 0xD7)) return p;
    }
    return size;
}

// One scan's view of a block: a first DC scan codes its value's difference (shifted by al),
// a refining one a single bit; 0 when the data is corrupt or ends.
static int dc_block(ix_reader *r, const ix_huff *t, int ah, int al, int *pred, int16_t *dc) {
    if (ah) {
        int bit = ix_bits(r, 1);
        if (bit < 0) return 0;
        if (bit) *dc = (int16_t)(*dc | 1 << al);
        return 1;
    }
    int s = ix_decode(r, t);
    if (s < 0 || s > 15) return 0;
    int bits = ix_bits(r, s);
    if (bits < 0) return 0;
    *pred += ix_extend(bits, s);
    // Far past any picture's DC: a crafted scan, which must not overflow the sum.
    if (*pred > 1 << 16 || *pred < -(1 << 16)) return 0;
    long value = (long)*pred * (1L << al);
    *dc = (int16_t)(value > 32767 ? 32767 : value < -32768 ? -32768 : value);
    return 1;
}

// A DC scan's data from `start` into the picture's blocks, in the scan's order: MCU by MCU
// with several components, block by block (the component's own grid) with one.
static int dc_decode(dc_picture *p, const int comps[], const int tables[], int ns, int ah, int al,
                     const uint8_t *data, size_t end, size_t start) {
    const struct cjpeg_index *f = &p->f;
    ix_reader r = {data, end, start, 0, 0, 0};
    int pred[IX_MAX_COMPONENTS] = {0}, restarts = 0;
    long units = 0;
    long across = ns == 1 ? (((long)f->width * p->h[comps[0]] + f->hmax - 1) / f->hmax + 7) / 8 : f->mcus_per_row;
    long down = ns == 1 ? (((long)f->height * p->v[comps[0]] + f->vmax - 1) / f->vmax + 7) / 8 : f->mcu_rows;
    for (long y = 0; y < down; y++) {
        for (long x = 0; x < across; x++, units++) {
            if (f->restart_interval && units > 0 && units % f->restart_interval == 0) {
                if (!ix_restart(&r, restarts++)) return 0;
                memset(pred, 0, sizeof pred);
            }
            for (int s = 0; s < ns; s++) {
                int c = comps[s], hs = ns == 1 ? 1 : p->h[c], vs = ns == 1 ? 1 : p->v[c];
                for (int by = 0; by < vs; by++) {
                    for (int bx = 0; bx < hs; bx++) {
                        int16_t *dc = &p->dc[c][(y * vs + by) * p->bw[c] + x * hs + bx];
                        if (!dc_block(&r, &f->dc[tables[s]], ah, al, &pred[s], dc)) return 0;
                    }
                }
            }
        }
    }
    return 1;
}

// A scan: its header at `seg` (n bytes), its data from *at, which moves past it. DC scans
// are read into the blocks (*first set for one that starts them); the AC scans' data is
// stepped over. 0 when it cannot be read.
static int dc_scan(dc_picture *p, const uint8_t *seg, size_t n, const uint8_t *data, size_t size, size_t *at,
                   int *first) {
    struct cjpeg_index *f = &p->f;
    size_t start = *at;
    *at = dc_scan_end(data, size, start);
    if (n < 1 || seg[0] < 1 || seg[0] > f->ncomp || n < 4 + 2 * (size_t)seg[0]) return 0;
    int ns = seg[0], comps[IX_MAX_COMPONENTS], tables[IX_MAX_COMPONENTS];
    const uint8_t *tail = seg + 1 + 2 * ns;
    int ss = tail[0], se = tail[1], ah = tail[2] >> 4, al = tail[2] & 15;
    *first = 0;
    if (ss != 0) return 1;
    if (se != 0 || al > 13) return 0;
    *first = !ah;
    for (int s = 0; s < ns; s++) {
        int c = 0;
        while (c < f->ncomp && p->ids[c] != seg[1 + 2 * s]) c++;
        tables[s] = seg[2 + 2 * s] >> 4;
        if (c == f->ncomp || tables[s] > 3 || (!ah && !f->dc[tables[s]].defined)) return 0;
        comps[s] = c;
    }
    return dc_decode(p, comps, tables, ns, ah, al, data, *at, start);
}

// The baseline scan: every block its DC, coded against the one before in the standard DC
// table, and an end-of-block; the MCUs as the frame lays them out.
static void dc_write_scan(ix_writer *w, const dc_picture *p) {
    // JPEG's standard DC table, and an AC table of one code, of one bit, for the end of a block.
    static const uint8_t counts[16] = {0, 1, 5, 1, 1, 1, 1, 1, 1};
    static const uint8_t values[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    static const uint8_t end_counts[16] = {1};
    const struct cjpeg_index *f = &p->f;
    ix_huff t;
    ix_huff_build(&t, counts, values, 1);
    static const uint8_t dht[] = {0xFF, 0xC4, 0, 2 + 17 + 12 + 17 + 1};
    for (size_t i = 0; i < sizeof dht; i++) ix_byte(w, dht[i]);
    ix_byte(w, 0x00);
    for (int i = 0; i < 16; i++) ix_byte(w, counts[i]);
    for (int i = 0; i < 12; i++) ix_byte(w, values[i]);
    ix_byte(w, 0x10);
    for (int i = 0; i < 16; i++) ix_byte(w, end_counts[i]);
    ix_byte(w, 0x00);
    uint8_t sos[5 + 2 * IX_MAX_COMPONENTS + 3] = {0xFF, 0xDA, 0, (uint8_t)(6 + 2 * f->ncomp), (uint8_t)f->ncomp};
    size_t k = 5;
    for (int c = 0; c < f->ncomp; c++) sos[k++] = (uint8_t)p->ids[c], sos[k++] = 0x00;
    sos[k++] = 0, sos[k++] = 63, sos[k++] = 0;
    for (size_t i = 0; i < k; i++) ix_byte(w, sos[i]);
    int pred[IX_MAX_COMPONENTS] = {0};
    for (long y = 0; y < f->mcu_rows; y++) {
        for (long x = 0; x < f->mcus_per_row; x++) {
            for (int c = 0; c < f->ncomp; c++) {
                for (int by = 0; by < p->v[c]; by++) {
                    for (int bx = 0; bx < p->h[c]; bx++) {
                        int value = p->dc[c][(y * p->v[c] + by) * p->bw[c] + x * p->h[c] + bx];
                        // Baseline's range for 8-bit samples: its differences then fit category 11.
                        value = value > 1023 ? 1023 : value < -1024 ? -1024 : value;
                        int diff = value - pred[c], cat = ix_category(diff);
                        pred[c] = value;
                        ix_put(w, t.code_of[cat], t.size_of[cat]);
                        if (cat) ix_put(w, (uint32_t)(diff < 0 ? diff - 1 : diff), cat);
                        ix_put(w, 0, 1);
                    }
                }
            }
        }
    }
    if (w->nbits) ix_put(w, 0xFF, 8 - w->nbits);
    ix_byte(w, 0xFF);
    ix_byte(w, 0xD9);
}

// The segments before the first scan that describe the picture (APPn, quantisation tables,
// comments) are kept; the frame header is kept as baseline's.
static void dc_keep(ix_writer *w, int m, const uint8_t *data, size_t p, size_t len) {
    ix_byte(w, 0xFF);
    ix_byte(w, (uint8_t)(m == 0xC2 ? 0xC0 : m));
    for (size_t i = 0; i < len; i++) ix_byte(w, data[p + i]);
}

uint8_t *cjpeg_progressive_dc(const uint8_t *data, size_t size, size_t *length) {
    *length = 0;
    if (!data || size < 4 || data[0] != 0xFF || data[1] != 0xD8) return NULL;
    dc_picture pic;
    memset(&pic, 0, sizeof pic);
    ix_writer w = {0};
    ix_byte(&w, 0xFF);
    ix_byte(&w, 0xD8);
    size_t p = 2;
    int frame = 0, dc_scans = 0, ok = 1;
    while (ok && p < size) {
        if (data[p] != 0xFF) break;
        while (p < size && data[p] == 0xFF) p++;
        if (p + 2 >= size) break;
        int m = data[p++];
        if (m == 0xD9) break;
        size_t len = ix_be16(data + p);
        if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7) || len < 2 || len > size - p) {
            ok = 0;
        } else if (m == 0xC2) {
            ok = !frame && ix_sof(&pic.f, data + p + 2, len - 2, pic.ids) == CJPEG_OK && dc_frame(&pic);
            frame = 1;
            dc_keep(&w, m, data, p, len);
        } else if (m == 0xC4) {
            ok = ix_dht(&pic.f, data + p + 2, len - 2) == CJPEG_OK;
        } else if (m == 0xDD) {
            ok = len >= 4;
            if (ok) pic.f.restart_interval = (int)ix_be16(data + p + 2);
        } else if (m == 0xDA) {
            size_t at = p + len;
            int first = 0;
            ok = frame && dc_scan(&pic, data + p + 2, len - 2, data, size, &at, &first);
            dc_scans += first;
            p = at;
            continue;
        } else if ((m & 0xF0) == 0xC0 || m == 0xDC) {
            ok = 0;  // another kind of JPEG (baseline, lossless, arithmetic...), or a height given late
        } else if (!dc_scans) {
            dc_keep(&w, m, data, p, len);
        }
        p += len;
    }
    if (ok && frame && dc_scans) dc_write_scan(&w, &pic);
    dc_free(&pic);
    if (!ok || !frame || !dc_scans || w.failed) {
        free(w.bytes);
        return NULL;
    }
    *length = w.length;
    return w.bytes;
}
