#ifndef MEDIAVIEW_CLCMS_SHIM_H
#define MEDIAVIEW_CLCMS_SHIM_H

// Little CMS: converts pictures from their embedded colour profile to the display's.
#include <lcms2.h>

// lcms2's TYPE_* pixel-format words are macros built from bit fields, which Swift does not
// import; this is the one the viewer's RGBA pictures use.
static inline cmsUInt32Number mv_lcms_type_rgba_8(void) { return TYPE_RGBA_8; }

#endif
