#include "cscale.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CSCALE_X86 1
#endif

cscale_form cscale_best_form(void) {
#ifdef CSCALE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return CSCALE_WIDE;
    if (__builtin_cpu_supports("ssse3")) return CSCALE_SHUFFLE;
#endif
    return CSCALE_PLAIN;
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

// Eight outputs of group `g` from `out + x` on: across in each row, then down with 16-bit
// multiplies (a level times 256 at most fits), and a pack back to bytes. A group that
// cannot be shuffled takes the plain loop's way.
__attribute__((target("ssse3")))
static inline void shuffled_group(const uint8_t *top, const uint8_t *bottom, int below,
                                  const int32_t *index, const int16_t *weight,
                                  const cscale_group *g, uint8_t *out, size_t x) {
    if (g->base < 0) {
        for (size_t k = x; k < x + 8; k++) out[k] = quad(top, bottom, below, index[k], weight[k]);
        return;
    }
    __m128i words = across(top, g);
    if (below != 0) {
        const __m128i wt = _mm_set1_epi16((short)(256 - below)), wb = _mm_set1_epi16((short)below);
        __m128i low = across(bottom, g);
        words = _mm_add_epi16(_mm_mullo_epi16(words, wt), _mm_mullo_epi16(low, wb));
        words = _mm_srli_epi16(_mm_add_epi16(words, _mm_set1_epi16(128)), 8);
    }
    _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(words, words));
}

__attribute__((target("ssse3")))
static void resample_shuffled(const uint8_t *top, const uint8_t *bottom, int below,
                              const int32_t *index, const int16_t *weight,
                              const cscale_group *groups, uint8_t *out, size_t count) {
    size_t x = 0;
    for (const cscale_group *g = groups; x + 8 <= count; g++, x += 8) {
        shuffled_group(top, bottom, below, index, weight, g, out, x);
    }
    for (; x < count; x++) out[x] = quad(top, bottom, below, index[x], weight[x]);
}

// Sixteen outputs (two groups) an iteration: each 128-bit lane does what the shuffled
// form does for one group, so the results are the same to the bit. Where either group
// cannot be shuffled, both go the shuffled form's way.
__attribute__((target("avx2")))
static void resample_wide(const uint8_t *top, const uint8_t *bottom, int below,
                          const int32_t *index, const int16_t *weight,
                          const cscale_group *groups, uint8_t *out, size_t count) {
    const __m256i wt = _mm256_set1_epi16((short)(256 - below)), wb = _mm256_set1_epi16((short)below);
    const __m256i round = _mm256_set1_epi16(128), half = _mm256_set1_epi16(32);
    size_t x = 0;
    const cscale_group *g = groups;
    for (; x + 16 <= count; g += 2, x += 16) {
        if (g[0].base < 0 || g[1].base < 0) {
            shuffled_group(top, bottom, below, index, weight, g, out, x);
            shuffled_group(top, bottom, below, index, weight, g + 1, out, x + 8);
            continue;
        }
        const __m256i mask = _mm256_loadu2_m128i((const __m128i *)g[1].shuffle, (const __m128i *)g[0].shuffle);
        const __m256i weights = _mm256_loadu2_m128i((const __m128i *)g[1].weights, (const __m128i *)g[0].weights);
        __m256i window = _mm256_loadu2_m128i((const __m128i *)(top + g[1].base), (const __m128i *)(top + g[0].base));
        __m256i words = _mm256_maddubs_epi16(_mm256_shuffle_epi8(window, mask), weights);
        words = _mm256_srli_epi16(_mm256_add_epi16(words, half), 6);
        if (below != 0) {
            window = _mm256_loadu2_m128i((const __m128i *)(bottom + g[1].base), (const __m128i *)(bottom + g[0].base));
            __m256i low = _mm256_maddubs_epi16(_mm256_shuffle_epi8(window, mask), weights);
            low = _mm256_srli_epi16(_mm256_add_epi16(low, half), 6);
            words = _mm256_add_epi16(_mm256_mullo_epi16(words, wt), _mm256_mullo_epi16(low, wb));
            words = _mm256_srli_epi16(_mm256_add_epi16(words, round), 8);
        }
        // Packing works per lane: the two groups' bytes sit in quadwords 0 and 2.
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
        _mm_storeu_si128((__m128i *)(out + x), _mm256_castsi256_si128(bytes));
    }
    for (; x + 8 <= count; g++, x += 8) shuffled_group(top, bottom, below, index, weight, g, out, x);
    for (; x < count; x++) out[x] = quad(top, bottom, below, index[x], weight[x]);
}
#endif

void cscale_resample(const uint8_t *top, const uint8_t *bottom, int below,
                     const int32_t *index, const int16_t *weight,
                     const cscale_group *groups, cscale_form form, uint8_t *out, size_t count) {
#ifdef CSCALE_X86
    if (groups && form == CSCALE_WIDE) {
        resample_wide(top, bottom, below, index, weight, groups, out, count);
        return;
    }
    if (groups && form == CSCALE_SHUFFLE) {
        resample_shuffled(top, bottom, below, index, weight, groups, out, count);
        return;
    }
#else
    (void)groups;
    (void)form;
#endif
    for (size_t x = 0; x < count; x++) out[x] = quad(top, bottom, below, index[x], weight[x]);
}

static inline uint8_t level(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

#ifdef CSCALE_X86
// Sixteen pixels an iteration with the SSE2 form's arithmetic, so the same pixels. The
// packs and unpacks work per 128-bit lane: the lanes end up holding pixels 0-3 and 8-11,
// then 4-7 and 12-15, and a lane swap puts them in order.
__attribute__((target("avx2")))
static size_t convert_wide(const uint8_t *luma, const int16_t *red, const int16_t *green, const int16_t *blue,
                           int16_t black, int16_t whole, int16_t fraction, uint32_t *out, size_t count) {
    const __m256i opaque = _mm256_set1_epi8((char)0xFF), floor = _mm256_set1_epi16(black);
    const __m256i w = _mm256_set1_epi16(whole), f = _mm256_set1_epi16(fraction), round = _mm256_set1_epi16(16);
    // Rows of the shared image the X server reads: written around the caches when they
    // are aligned for it, which saves reading each line in before overwriting it and leaves
    // the caches to the decoder.
    const int streamed = ((uintptr_t)out & 31) == 0;
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        __m256i y = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(luma + x)));
        y = _mm256_sub_epi16(_mm256_max_epi16(y, floor), floor);
        y = _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(y, w), _mm256_srai_epi16(_mm256_mullo_epi16(y, f), 8)), round);
        __m256i r = _mm256_srai_epi16(_mm256_add_epi16(y, _mm256_loadu_si256((const __m256i *)(red + x))), 5);
        __m256i g = _mm256_srai_epi16(_mm256_add_epi16(y, _mm256_loadu_si256((const __m256i *)(green + x))), 5);
        __m256i b = _mm256_srai_epi16(_mm256_add_epi16(y, _mm256_loadu_si256((const __m256i *)(blue + x))), 5);
        __m256i bg = _mm256_unpacklo_epi8(_mm256_packus_epi16(b, b), _mm256_packus_epi16(g, g));
        __m256i ra = _mm256_unpacklo_epi8(_mm256_packus_epi16(r, r), opaque);
        __m256i low = _mm256_unpacklo_epi16(bg, ra), high = _mm256_unpackhi_epi16(bg, ra);
        if (streamed) {
            _mm256_stream_si256((__m256i *)(out + x), _mm256_permute2x128_si256(low, high, 0x20));
            _mm256_stream_si256((__m256i *)(out + x + 8), _mm256_permute2x128_si256(low, high, 0x31));
        } else {
            _mm256_storeu_si256((__m256i *)(out + x), _mm256_permute2x128_si256(low, high, 0x20));
            _mm256_storeu_si256((__m256i *)(out + x + 8), _mm256_permute2x128_si256(low, high, 0x31));
        }
    }
    if (streamed) _mm_sfence();
    return x;
}
#endif

void cscale_convert(const uint8_t *luma, const int16_t *red, const int16_t *green, const int16_t *blue,
                    int16_t black, int16_t whole, int16_t fraction, cscale_form form,
                    uint32_t *out, size_t count) {
    size_t x = 0;
#ifdef CSCALE_X86
    if (form == CSCALE_WIDE) x = convert_wide(luma, red, green, blue, black, whole, fraction, out, count);
    const __m128i zero = _mm_setzero_si128(), opaque = _mm_set1_epi8((char)0xFF);
    const __m128i floor = _mm_set1_epi16(black), w = _mm_set1_epi16(whole), f = _mm_set1_epi16(fraction);
    const __m128i round = _mm_set1_epi16(16);
    for (; form != CSCALE_PLAIN && x + 8 <= count; x += 8) {
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
#else
    (void)form;
#endif
    for (; x < count; x++) {
        int above = luma[x] > black ? luma[x] - black : 0;
        int y = above * whole + ((above * fraction) >> 8) + 16;
        out[x] = (uint32_t)level((y + blue[x]) >> 5) | (uint32_t)level((y + green[x]) >> 5) << 8
            | (uint32_t)level((y + red[x]) >> 5) << 16 | 0xFF000000u;
    }
}
