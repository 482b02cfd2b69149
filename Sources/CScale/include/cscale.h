#ifndef MEDIAVIEW_CSCALE_H
#define MEDIAVIEW_CSCALE_H

// The resampling pass of the video scaler: each output sample is the bilinear mix of the
// four source samples around it, two in each of two rows.
//
// C because the fast form needs SSSE3's byte shuffle and byte multiply-add, which Swift's
// SIMD types cannot ask for: the compiler targets x86-64's baseline (SSE2), and a gather of
// pairs built from scalar loads costs more than swscale does. Each group of 8 outputs loads
// 16 source bytes once, shuffles its pairs out of them and weighs them in one instruction.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// One group of 8 output samples: the 16 source bytes from `base` hold every pair it reads.
typedef struct {
    // The first source byte of the window; or -1 when the group's pairs do not fit in 16
    // bytes (a shrink of 2:1 or more) or the window would pass the row's end.
    int32_t base;
    // pshufb mask putting each output's pair side by side: left, right, left, right...
    uint8_t shuffle[16];
    // For each output, the left and right weights in 1/64 (they sum to 64), as pmaddubsw's
    // signed bytes; video scaled for moving pictures needs no finer steps.
    int8_t weights[16];
} cscale_group;
// The ways the kernels can run, each giving the same results as the one before it
// except the plain loop, which weighs across in 1/256 rather than 1/64.
typedef enum {
    // One sample at a time: any processor.
    CSCALE_PLAIN = 0,
    // 8 samples at a time with SSE2 and SSSE3's shuffle and byte multiply-add.
    CSCALE_SHUFFLE = 1,
    // 16 at a time with AVX2: the same instructions on twice the width, for half the
    // instructions on the processors of the last decade.
    CSCALE_WIDE = 2
} cscale_form;

// The widest form this processor runs; checked once by the caller, which may choose a
// narrower one (the tests compare them).
cscale_form cscale_best_form(void);

// Resamples between two source rows into `count` output samples: each output is the
// bilinear mix of the pairs around it in `top` and `bottom`, the bottom pair weighing
// `below` in 1/256 (0 reads `top` alone). `index[x]` is the left source sample of output x
// and `weight[x]` the right one's weight in 1/256 (0...256); `groups` holds count / 8
// groups for the shuffled and wide forms, and may be NULL for the plain loop.
void cscale_resample(const uint8_t *top, const uint8_t *bottom, int below,
                     const int32_t *index, const int16_t *weight,
                     const cscale_group *groups, cscale_form form, uint8_t *out, size_t count);

// Converts one output row to BGRX (the unused byte 255): luma above `black`, times
// `whole` + `fraction` / 256 (in 1/32 of a level), plus each pixel's chroma terms in
// 1/32 of a level, clamped to 0...255. C for SSE2's saturating packs and byte unpacks,
// which pack the three channels in a dozen instructions for eight pixels (sixteen wide).
// The plain form differs from the others in no pixel.
void cscale_convert(const uint8_t *luma, const int16_t *red, const int16_t *green, const int16_t *blue,
                    int16_t black, int16_t whole, int16_t fraction, cscale_form form,
                    uint32_t *out, size_t count);


// A still picture's scaler: a separable filter (bicubic or bilinear, widened when the
// picture shrinks so every source pixel counts) over 8-bit pixels of four channels, in
// place of swscale, which the viewer then never loads for the pictures its workers decode.
// C because its inner loops want SSE2's 16-bit multiply-add of a pixel pair's channels,
// which Swift's SIMD types do not reach; the plain loops give the same results.

// One axis's filter: output i weighs `taps` source samples from `first[i]` on, with
// `weights[i * taps + k]` in 1/16384 (summing to 16384); every tap lies inside the source.
typedef struct {
    const int32_t *first;
    const int16_t *weights;
    int32_t taps;
} cscale_filter;

// Writes output rows `row_begin` to `row_end` (of `across`' and `down`'s outputs) as BGRX
// (the unused byte 255) at `dst`, `dst_stride` bytes apart, from four-byte pixels at `src`;
// with `swap_red_blue` the source is RGBA or RGBX, else BGRA or BGRX. Its alpha is not
// read, as swscale does not. `scratch` holds `down->taps` rows of `width` * 4 16-bit
// samples, `slots` `down->taps` integers and `rows` `down->taps` pointers; they belong to
// this call alone.
void cscale_packed(const uint8_t *src, size_t src_stride, int swap_red_blue,
                   const cscale_filter *across, const cscale_filter *down,
                   uint8_t *dst, size_t dst_stride, int32_t width, int32_t row_begin, int32_t row_end,
                   int16_t *scratch, int32_t *slots, const int16_t **rows);

// Halves one plane: each output sample is the rounded mean of its 2x2 block of `src` (an
// odd last row or column is averaged with itself). `dst_width` and `dst_height` are at most
// half of `width` and `height`, rounded up. The forms differ in speed only.
void cscale_halve(const uint8_t *src, size_t stride, size_t width, size_t height,
                  uint8_t *dst, size_t dst_stride, size_t dst_width, size_t dst_height, cscale_form form);

#ifdef __cplusplus
}
#endif

#endif
