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

#ifdef __cplusplus
}
#endif

#endif
