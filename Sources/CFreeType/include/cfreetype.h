#ifndef MEDIAVIEW_CFREETYPE_H
#define MEDIAVIEW_CFREETYPE_H

// FreeType and fontconfig for the interface's text. Neither is linked: CDelayLoad loads them
// on the first call, so a viewer that has drawn no text maps no font library (nor libpng,
// which FreeType links for colour glyphs). Debian keeps FreeType's headers under
// /usr/include/freetype2 and its pkg-config file would link the library at start, so the two
// symbolic links beside this header (ft2build.h, freetype/) put them on the include path.
#include <ft2build.h>
#include FT_FREETYPE_H
#include <fontconfig/fontconfig.h>

/// Loads and renders one glyph with light hinting: FT_LOAD_TARGET_LIGHT is a macro of
/// shifts, which Swift cannot import. FreeType's error code, 0 when the glyph is in the slot.
FT_Error cft_load_rendered_light(FT_Face face, FT_UInt glyph_index);

#endif
