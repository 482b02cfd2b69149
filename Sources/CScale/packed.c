#include "cscale.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

// Horizontally filtered samples keep 6 bits below a level: a weighted sum in 1/16384
// shifted by 8. A bicubic's overshoot (at most about 1.3 x 255 x 64) fits in 16 bits.
enum { WEIGHT_BITS = 14, ACROSS_SHIFT = 8, KEPT_BITS = WEIGHT_BITS - ACROSS_SHIFT };

// One source row across into `out`: width pixels of four 16-bit samples each, in the
// source's channel order.
static void across_row(const uint8_t *row, const cscale_filter *f, int16_t *out, int32_t width) {
    const int32_t taps = f->taps;
    for (int32_t x = 0; x < width; x++) {
        const uint8_t *p = row + (size_t)f->first[x] * 4;
        const int16_t *w = f->weights + (size_t)x * taps;
        int32_t k = 0;
#if defined(__x86_64__)
        // Two taps at a time: their pixels' bytes interleaved channel by channel, so one
        // multiply-add gives each channel's pair sum.
        __m128i sums = _mm_setzero_si128();
        const __m128i zero = _mm_setzero_si128();
        for (; k + 1 < taps; k += 2) {
            __m128i a = _mm_cvtsi32_si128(*(const int32_t *)(const void *)(p + k * 4));
            __m128i b = _mm_cvtsi32_si128(*(const int32_t *)(const void *)(p + k * 4 + 4));
            __m128i pixels = _mm_unpacklo_epi8(_mm_unpacklo_epi8(a, b), zero);
            __m128i weights = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)w[k + 1] << 16) | (uint16_t)w[k]));
            sums = _mm_add_epi32(sums, _mm_madd_epi16(pixels, weights));
        }
        int32_t s[4];
        _mm_storeu_si128((__m128i *)(void *)s, sums);
#else
        int32_t s[4] = {0, 0, 0, 0};
#endif
        for (; k < taps; k++)
            for (int c = 0; c < 4; c++) s[c] += p[k * 4 + c] * w[k];
        for (int c = 0; c < 4; c++) out[x * 4 + c] = (int16_t)((s[c] + (1 << (ACROSS_SHIFT - 1))) >> ACROSS_SHIFT);
    }
}

// A sum down, in 1/16384 of a sample kept with 6 bits more, back to a level.
static inline uint8_t level(int32_t sum) {
    int32_t v = (sum + (1 << (WEIGHT_BITS + KEPT_BITS - 1))) >> (WEIGHT_BITS + KEPT_BITS);
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

// One output pixel from its four sums: BGRX, red and blue where the source had them.
static inline uint32_t pixel(uint32_t source_order, int swap_red_blue) {
    uint32_t p = source_order;
    if (swap_red_blue) p = (p & 0x0000FF00u) | ((p >> 16) & 0xFFu) | ((p & 0xFFu) << 16);
    return p | 0xFF000000u;
}

// One output row down from the `taps` rows filtered across, weighed by `w`.
static void down_row(const int16_t *const *rows, const int16_t *w, int32_t taps, int32_t width,
                     int swap_red_blue, uint32_t *out) {
    int32_t x = 0;
#if defined(__x86_64__)
    // Two pixels (8 samples) at a time, two taps per multiply-add: the rows' samples
    // interleaved, so each 32-bit sum is one sample's pair of taps.
    const __m128i zero = _mm_setzero_si128();
    const __m128i round = _mm_set1_epi32(1 << (WEIGHT_BITS + KEPT_BITS - 1));
    for (; x + 2 <= width; x += 2) {
        const size_t i = (size_t)x * 4;
        __m128i lo = round, hi = round;
        int32_t k = 0;
        for (; k + 1 < taps; k += 2) {
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(rows[k] + i));
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(rows[k + 1] + i));
            __m128i pair = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)w[k + 1] << 16) | (uint16_t)w[k]));
            lo = _mm_add_epi32(lo, _mm_madd_epi16(_mm_unpacklo_epi16(a, b), pair));
            hi = _mm_add_epi32(hi, _mm_madd_epi16(_mm_unpackhi_epi16(a, b), pair));
        }
        if (k < taps) {
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(rows[k] + i));
            __m128i single = _mm_set1_epi32((int32_t)(uint16_t)w[k]);
            lo = _mm_add_epi32(lo, _mm_madd_epi16(_mm_unpacklo_epi16(a, zero), single));
            hi = _mm_add_epi32(hi, _mm_madd_epi16(_mm_unpackhi_epi16(a, zero), single));
        }
        lo = _mm_srai_epi32(lo, WEIGHT_BITS + KEPT_BITS);
        hi = _mm_srai_epi32(hi, WEIGHT_BITS + KEPT_BITS);
        // Saturating packs clamp to 0...255 as `level` does.
        __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(lo, hi), zero);
        uint64_t two = (uint64_t)_mm_cvtsi128_si64(bytes);
        out[x] = pixel((uint32_t)two, swap_red_blue);
        out[x + 1] = pixel((uint32_t)(two >> 32), swap_red_blue);
    }
#endif
    for (; x < width; x++) {
        int32_t s[4] = {0, 0, 0, 0};
        for (int32_t k = 0; k < taps; k++)
            for (int c = 0; c < 4; c++) s[c] += rows[k][(size_t)x * 4 + c] * w[k];
        uint32_t p = (uint32_t)level(s[0]) | (uint32_t)level(s[1]) << 8 | (uint32_t)level(s[2]) << 16;
        out[x] = pixel(p, swap_red_blue);
    }
}

void cscale_packed(const uint8_t *src, size_t src_stride, int swap_red_blue,
                   const cscale_filter *across, const cscale_filter *down,
                   uint8_t *dst, size_t dst_stride, int32_t width, int32_t row_begin, int32_t row_end,
                   int16_t *scratch, int32_t *slots, const int16_t **rows) {
    const int32_t taps = down->taps;
    const size_t samples = (size_t)width * 4;
    for (int32_t k = 0; k < taps; k++) slots[k] = -1;
    for (int32_t y = row_begin; y < row_end; y++) {
        const int32_t first = down->first[y];
        for (int32_t k = 0; k < taps; k++) {
            // Each source row is filtered across once: row r lives in slot r % taps, and an
            // output's rows are consecutive, so none pushes out another that it needs.
            int32_t r = first + k, slot = r % taps;
            int16_t *line = scratch + (size_t)slot * samples;
            if (slots[slot] != r) {
                across_row(src + (size_t)r * src_stride, across, line, width);
                slots[slot] = r;
            }
            rows[k] = line;
        }
        down_row(rows, down->weights + (size_t)y * taps, taps, width, swap_red_blue,
                 (uint32_t *)(void *)(dst + (size_t)y * dst_stride));
    }
}
