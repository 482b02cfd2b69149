#ifndef MEDIAVIEW_CEXIF_SHIM_H
#define MEDIAVIEW_CEXIF_SHIM_H

// libexif: the photo's own facts (when it was taken, camera, lens, exposure) for sorting
// a folder by date taken and for the info panel. Debian's well-kept EXIF reader, so the
// tag tables and the makers' quirks are not ours to maintain.
#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>

// exif_data_get_entry is a macro that walks the five IFDs; Swift cannot call macros.
static inline ExifEntry *mv_exif_entry(ExifData *data, ExifTag tag) {
    return exif_data_get_entry(data, tag);
}

#endif
