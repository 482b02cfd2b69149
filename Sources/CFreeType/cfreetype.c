#include "cfreetype.h"

FT_Error cft_load_rendered_light(FT_Face face, FT_UInt glyph_index) {
    return FT_Load_Glyph(face, glyph_index, FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT);
}
