#include "cscale.h"

#if defined(__x86_64__) || defined(__i386__)
#include <tmmintrin.h>
#define CSCALE_X86 1
#endif

int cscale_has_shuffle(void) {
#ifdef CSCALE_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("ssse3");
#else
    return 0;
#endif
}

// Output x from its pair in `row`, in 1/256 of a level.
static inline int pair(const uint8_t *row, int32_t i, int16_t w) {
    return row[i] * (256 - w) + row[i + 1] * w;
}

// Output x from its four samples: each row's pair, then the two rows by `below`.
static inline uint8_t quad(const uint8_t *top, const uint8_t *bottom, int below, int32_t i, int16_t w) {
    int a = (pair(top, i, w) + 128) >> 8;
    if (below == 0) return (uint8_t)a;
    int b = (pair(bottom, i, w) + 128) >> 8;
    return (uint8_t)((a * (256 - below) + b * below + 128) >> 8);
}

#ifdef CSCALE_X86
// One row's 8 outputs: one unaligned load, one shuffle into (left, right) byte pairs, one
// multiply-add of each pair with its weights, rounded back to whole levels in 16 bits.
__attribute__((target("ssse3")))
static inline __m128i across(const uint8_t *row, const cscale_group *g) {
    __m128i window = _mm_loadu_si128((const __m128i *)(row + g->base));
    __m128i pairs = _mm_shuffle_epi8(window, _mm_loadu_si128((const __m128i *)g->shuffle));
    __m128i sums = _mm_maddubs_epi16(pairs, _mm_loadu_si128((const __m128i *)g->weights));
    return _mm_srli_epi16(_mm_add_epi16(sums, _mm_set1_epi16(32)), 6);
}

// Eight outputs a group: across in each row, then down with 16-bit multiplies (a level
// times 256 at most fits), and a pack back to bytes.
__attribute__((target("ssse3")))
static void resample_shuffled(const uint8_t *top, const uint8_t *bottom, int below,
                              const int32_t *index, const int16_t *weight,
                              const cscale_group *groups, uint8_t *out, size_t count) {
    const __m128i wt = _mm_set1_epi16((short)(256 - below)), wb = _mm_set1_epi16((short)below);
    const __m128i round = _mm_set1_epi16(128);
    size_t x = 0;
    for (const cscale_group *g = groups; x + 8 <= count; g++, x += 8) {
        if (g->base < 0) {
            for (size_t k = x; k < x + 8; k++) out[k] = quad(top, bottom, below, index[k], weight[k]);
            continue;
        }
        __m128i words = across(top, g);
        if (below != 0) {
            __m128i low = across(bottom, g);
            words = _mm_add_epi16(_mm_mullo_epi16(words, wt), _mm_mullo_epi16(low, wb));
            words = _mm_srli_epi16(_mm_add_epi16(words, round), 8);
        }
        _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(words, words));
    }
    for (; x < count; x++) out[x] = quad(top, bottom, below, index[x], weight[x]);
}
#endif

void cscale_resample(const uint8_t *top, const uint8_t *bottom, int below,
                     const int32_t *index, const int16_t *weight,
                     const cscale_group *groups, uint8_t *out, size_t count) {
#ifdef CSCALE_X86
    if (groups) {
        resample_shuffled(top, bottom, below, index, weight, groups, out, count);
        return;
    }
#endif
    for (size_t x = 0; x < count; x++) out[x] = quad(top, bottom, below, index[x], weight[x]);
}

static inline uint8_t level(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

void cscale_convert(const uint8_t *luma, const int16_t *red, const int16_t *green, const int16_t *blue,
                    int16_t black, int16_t whole, int16_t fraction, uint32_t *out, size_t count) {
    size_t x = 0;
#ifdef CSCALE_X86
    const __m128i zero = _mm_setzero_si128(), opaque = _mm_set1_epi8((char)0xFF);
    const __m128i floor = _mm_set1_epi16(black), w = _mm_set1_epi16(whole), f = _mm_set1_epi16(fraction);
    const __m128i round = _mm_set1_epi16(16);
    for (; x + 8 <= count; x += 8) {
        // Below black is black: its chroma would otherwise tint the darkest shadows.
        __m128i y = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(luma + x)), zero);
        y = _mm_sub_epi16(_mm_max_epi16(y, floor), floor);
        y = _mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(y, w), _mm_srai_epi16(_mm_mullo_epi16(y, f), 8)), round);
        __m128i r = _mm_srai_epi16(_mm_add_epi16(y, _mm_loadu_si128((const __m128i *)(red + x))), 5);
        __m128i g = _mm_srai_epi16(_mm_add_epi16(y, _mm_loadu_si128((const __m128i *)(green + x))), 5);
        __m128i b = _mm_srai_epi16(_mm_add_epi16(y, _mm_loadu_si128((const __m128i *)(blue + x))), 5);
        // Saturating packs clamp to 0...255; then b g r 255 byte by byte.
        __m128i bg = _mm_unpacklo_epi8(_mm_packus_epi16(b, b), _mm_packus_epi16(g, g));
        __m128i ra = _mm_unpacklo_epi8(_mm_packus_epi16(r, r), opaque);
        _mm_storeu_si128((__m128i *)(out + x), _mm_unpacklo_epi16(bg, ra));
        _mm_storeu_si128((__m128i *)(out + x + 4), _mm_unpackhi_epi16(bg, ra));
    }
#endif
    for (; x < count; x++) {
        int above = luma[x] > black ? luma[x] - black : 0;
        int y = above * whole + ((above * fraction) >> 8) + 16;
        out[x] = (uint32_t)level((y + blue[x]) >> 5) | (uint32_t)level((y + green[x]) >> 5) << 8
            | (uint32_t)level((y + red[x]) >> 5) << 16 | 0xFF000000u;
    }
}
