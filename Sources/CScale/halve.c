// Halving a plane of 8-bit samples: video shown at half its size or less (4K in a 1080p
// window, 720p in the thumbnail) is halved before the bilinear pass, so every source pixel
// counts. C for SSE2's and AVX2's byte packs and pair sums, which Swift's SIMD types do
// not reach; every form makes the same bytes.
#include "cscale.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CSCALE_X86 1
#endif

// One output row of the 2x2 mean: `pairs` outputs from both rows' byte pairs.
static void halve_row_plain(const uint8_t *r0, const uint8_t *r1, uint8_t *o, size_t from, size_t pairs) {
    for (size_t x = from; x < pairs; x++)
        o[x] = (uint8_t)((r0[2 * x] + r0[2 * x + 1] + r1[2 * x] + r1[2 * x + 1] + 2) >> 2);
}

#ifdef CSCALE_X86
// Sixteen outputs an iteration: each row's even and odd bytes as 16-bit lanes (a mask and
// a shift, SSE2 has no byte pair add), summed with the other row's, rounded, packed.
static size_t halve_row_sse2(const uint8_t *r0, const uint8_t *r1, uint8_t *o, size_t pairs) {
    const __m128i low = _mm_set1_epi16(0x00FF), two = _mm_set1_epi16(2);
    size_t x = 0;
    for (; x + 16 <= pairs; x += 16) {
        __m128i s[2];
        for (int h = 0; h < 2; h++) {
            __m128i a = _mm_loadu_si128((const __m128i *)(r0 + 2 * x + 16 * h));
            __m128i b = _mm_loadu_si128((const __m128i *)(r1 + 2 * x + 16 * h));
            __m128i sum = _mm_add_epi16(_mm_add_epi16(_mm_and_si128(a, low), _mm_srli_epi16(a, 8)),
                                        _mm_add_epi16(_mm_and_si128(b, low), _mm_srli_epi16(b, 8)));
            s[h] = _mm_srli_epi16(_mm_add_epi16(sum, two), 2);
        }
        _mm_storeu_si128((__m128i *)(o + x), _mm_packus_epi16(s[0], s[1]));
    }
    return x;
}

// Thirty-two outputs an iteration: one multiply-add by ones sums each byte pair.
__attribute__((target("avx2")))
static size_t halve_row_wide(const uint8_t *r0, const uint8_t *r1, uint8_t *o, size_t pairs) {
    const __m256i ones = _mm256_set1_epi8(1), two = _mm256_set1_epi16(2);
    size_t x = 0;
    for (; x + 32 <= pairs; x += 32) {
        __m256i s[2];
        for (int h = 0; h < 2; h++) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(r0 + 2 * x + 32 * h));
            __m256i b = _mm256_loadu_si256((const __m256i *)(r1 + 2 * x + 32 * h));
            __m256i sum = _mm256_add_epi16(_mm256_maddubs_epi16(a, ones), _mm256_maddubs_epi16(b, ones));
            s[h] = _mm256_srli_epi16(_mm256_add_epi16(sum, two), 2);
        }
        // Packing works per lane: put the quadwords back in order.
        _mm256_storeu_si256((__m256i *)(o + x), _mm256_permute4x64_epi64(_mm256_packus_epi16(s[0], s[1]), 0xD8));
    }
    return x;
}
#endif

void cscale_halve(const uint8_t *src, size_t stride, size_t width, size_t height,
                  uint8_t *dst, size_t dst_stride, size_t dst_width, size_t dst_height, cscale_form form) {
    size_t pairs = dst_width < width / 2 ? dst_width : width / 2;
    for (size_t y = 0; y < dst_height; y++) {
        const uint8_t *r0 = src + (2 * y < height ? 2 * y : height - 1) * stride;
        const uint8_t *r1 = src + (2 * y + 1 < height ? 2 * y + 1 : height - 1) * stride;
        uint8_t *o = dst + y * dst_stride;
        size_t x = 0;
#ifdef CSCALE_X86
        if (form == CSCALE_WIDE) x = halve_row_wide(r0, r1, o, pairs);
        if (form != CSCALE_PLAIN) x += halve_row_sse2(r0 + 2 * x, r1 + 2 * x, o + x, pairs - x);
#else
        (void)form;
#endif
        halve_row_plain(r0, r1, o, x, pairs);
        // An odd last column is averaged with itself.
        for (x = pairs; x < dst_width; x++) {
            size_t c = 2 * x < width ? 2 * x : width - 1;
            o[x] = (uint8_t)((r0[c] + r1[c] + 1) >> 1);
        }
    }
}
