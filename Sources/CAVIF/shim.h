#ifndef MEDIAVIEW_CAVIF_SHIM_H
#define MEDIAVIEW_CAVIF_SHIM_H

// libavif: AVIF stills and animations. FFmpeg 5.1 opens an AVIF as a one-frame AV1 video
// without its timing, rotation or colour facts; libavif reads the container as pictures.
#include <avif/avif.h>

#endif
