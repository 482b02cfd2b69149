#ifndef MEDIAVIEW_CJXL_SHIM_H
#define MEDIAVIEW_CJXL_SHIM_H

// libjxl's decoder: FFmpeg 5.1's JPEG XL decoder gives only the first frame of an
// animation, so animated JPEG XL is decoded here with its own frame durations.
#include <jxl/decode.h>

#endif
