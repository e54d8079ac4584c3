#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_MULTIPLE_MASTERS_H

/* FT_LOAD_TARGET_LIGHT is a function-like macro, which Swift does not import: light hinting
   (vertical only, so HarfBuzz's unhinted advances still hold). */
static const FT_Int32 skeleton_ft_load_target_light = FT_LOAD_TARGET_LIGHT;
