#ifndef MEDIAVIEW_CFREETYPE_SHIM_H
#define MEDIAVIEW_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include <fontconfig/fontconfig.h>

// FT_LOAD_* and FT_RENDER_MODE flags are macros built from shifts; name the ones we use.
static const int cft_load_render = FT_LOAD_RENDER;
static const int cft_load_default = FT_LOAD_DEFAULT;

#endif
