#ifndef MEDIAVIEW_CWEBP_SHIM_H
#define MEDIAVIEW_CWEBP_SHIM_H

// libwebp's animation decoder: FFmpeg 5.1 (Debian 12) parses animated WebP but cannot
// decode its frames, so the viewer decodes those with libwebpdemux directly.
#include <webp/decode.h>
#include <webp/demux.h>

#endif
