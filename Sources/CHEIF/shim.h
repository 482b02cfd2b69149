#ifndef MEDIAVIEW_CHEIF_SHIM_H
#define MEDIAVIEW_CHEIF_SHIM_H

// libheif: HEIC photos (phones save these), which FFmpeg 5.1 cannot open at all.
#include <libheif/heif.h>

#endif
