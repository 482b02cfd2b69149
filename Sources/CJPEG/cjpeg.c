#include "cjpeg.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>  // jpeglib.h uses FILE and size_t without including them
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>  // JWRN_JPEG_EOF, the premature-end warning

// libjpeg's error manager with somewhere to jump back to: error_exit must not return.
struct cjpeg_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int truncated;  // libjpeg met the end of the data before the end of the picture
    // Where the data ran out, as a share of the picture's height (in iMCU rows): what a
    // partly downloaded file shows of its own. A progressive file past its first scan is
    // whole (blurry); a baseline one or a first scan cut short is whole only above the cut.
    unsigned int cut_row, cut_rows;
};

struct cjpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct cjpeg_error err;
};

// Keeps libjpeg's text for Swift, then unwinds to the setjmp of the call in progress.
static void cjpeg_error_exit(j_common_ptr cinfo) {
    struct cjpeg_error *e = (struct cjpeg_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}

// Counts warnings and drops trace messages; the default would print the first warning.
// A premature end is remembered: libjpeg fills the missing rows with grey and goes on, and
// a user must hear that the photo is incomplete rather than see half of it as if whole.
static void cjpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0) {
        cinfo->err->num_warnings++;
        struct cjpeg_error *e = (struct cjpeg_error *)cinfo->err;
        if (cinfo->err->msg_code == JWRN_JPEG_EOF && !e->truncated && cinfo->is_decompressor) {
            j_decompress_ptr c = (j_decompress_ptr)cinfo;
            e->cut_rows = c->total_iMCU_rows;
            int whole = c->progressive_mode && (c->input_scan_number > 1 || c->input_iMCU_row >= c->total_iMCU_rows);
            e->cut_row = whole ? c->total_iMCU_rows : c->input_iMCU_row;
        }
        if (cinfo->err->msg_code == JWRN_JPEG_EOF) e->truncated = 1;
    }
}

// Nothing reaches stderr: the player reports failures in its own words, once.
static void cjpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

// jpeg_create_decompress fails only when out of memory (or on a library mismatch); on its
// own so that no local of cjpeg_new lives across the longjmp.
static int cjpeg_create(struct jpeg_decompress_struct *c, struct cjpeg_error *e) {
    if (setjmp(e->jump)) return 0;
    jpeg_create_decompress(c);
    return 1;
}

cjpeg_decoder *cjpeg_new(void) {
    cjpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->cinfo.err = jpeg_std_error(&d->err.pub);
    d->err.pub.error_exit = cjpeg_error_exit;
    d->err.pub.emit_message = cjpeg_emit_message;
    d->err.pub.output_message = cjpeg_output_message;
    if (!cjpeg_create(&d->cinfo, &d->err)) {
        jpeg_destroy_decompress(&d->cinfo);
        free(d);
        return NULL;
    }
    return d;
}

void cjpeg_free(cjpeg_decoder *d) {
    if (!d) return;
    jpeg_destroy_decompress(&d->cinfo);
    free(d);
}

cjpeg_status cjpeg_read_header(cjpeg_decoder *d, const uint8_t *data, size_t size, int scale_denom,
                               cjpeg_info *info) {
    memset(info, 0, sizeof *info);
    if (setjmp(d->err.jump)) return CJPEG_FAILED;
    struct jpeg_decompress_struct *c = &d->cinfo;
    jpeg_mem_src(c, data, (unsigned long)size);
    // APP2 holds an ICC profile in chunks; libjpeg drops markers it is not asked to keep.
    jpeg_save_markers(c, JPEG_APP0 + 2, 0xFFFF);
    if (jpeg_read_header(c, TRUE) != JPEG_HEADER_OK) {
        // Only tables, no picture (an abbreviated stream).
        snprintf(d->err.message, sizeof d->err.message, "no picture in the JPEG data");
        return CJPEG_FAILED;
    }
    info->image_width = (int)c->image_width;
    info->image_height = (int)c->image_height;
    info->progressive = c->progressive_mode ? 1 : 0;
    if (c->saw_JFIF_marker && c->X_density > 0 && c->Y_density > 0) {
        info->density_x = c->X_density;
        info->density_y = c->Y_density;
    }
    switch (c->jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB:
        break;
    default:
        snprintf(d->err.message, sizeof d->err.message, "%s JPEG left to FFmpeg",
                 c->jpeg_color_space == JCS_CMYK   ? "CMYK"
                 : c->jpeg_color_space == JCS_YCCK ? "YCCK"
                                                   : "odd colour space");
        return CJPEG_UNSUPPORTED;
    }
    c->out_color_space = JCS_EXT_BGRX;
    c->scale_num = 1;
    c->scale_denom = (unsigned int)(scale_denom == 2 || scale_denom == 4 || scale_denom == 8 ? scale_denom : 1);
    // ISLOW, what djpeg and the browsers use: IFAST saved about 5 % at full size on a 24 MP
    // photo, for visibly rougher detail. Scaled, libjpeg-turbo uses its reduced IDCTs anyway.
    c->dct_method = JDCT_ISLOW;
    // Triangle chroma upsampling (libjpeg's default) rather than merged, blocky 2x2 chroma: it
    // cost about 2 % at full size, and scaled 4:2:0 needs none (the chroma IDCT scales up instead).
    c->do_fancy_upsampling = TRUE;
    jpeg_calc_output_dimensions(c);
    info->width = (int)c->output_width;
    info->height = (int)c->output_height;
    return CJPEG_OK;
}

cjpeg_status cjpeg_set_scale(cjpeg_decoder *d, int scale_denom, cjpeg_info *info) {
    if (setjmp(d->err.jump)) return CJPEG_FAILED;
    struct jpeg_decompress_struct *c = &d->cinfo;
    c->scale_num = 1;
    c->scale_denom = (unsigned int)(scale_denom == 2 || scale_denom == 4 || scale_denom == 8 ? scale_denom : 1);
    jpeg_calc_output_dimensions(c);
    info->width = (int)c->output_width;
    info->height = (int)c->output_height;
    return CJPEG_OK;
}

void cjpeg_limit_memory(cjpeg_decoder *d, size_t bytes) {
    // libjpeg-turbo has no backing store: past this, an allocation fails (error_exit) at once.
    d->cinfo.mem->max_memory_to_use = bytes > (size_t)LONG_MAX ? LONG_MAX : (long)bytes;
}

uint8_t *cjpeg_icc_profile(cjpeg_decoder *d, unsigned int *length) {
    *length = 0;
    if (setjmp(d->err.jump)) return NULL;
    JOCTET *icc = NULL;
    if (!jpeg_read_icc_profile(&d->cinfo, &icc, length)) {
        *length = 0;
        return NULL;
    }
    return icc;
}

cjpeg_status cjpeg_decode_into(cjpeg_decoder *d, uint8_t *dst, ptrdiff_t stride) {
    if (setjmp(d->err.jump)) return CJPEG_FAILED;
    struct jpeg_decompress_struct *c = &d->cinfo;
    jpeg_start_decompress(c);
    while (c->output_scanline < c->output_height) {
        JSAMPROW rows[16];
        JDIMENSION n = c->output_height - c->output_scanline;
        if (n > 16) n = 16;
        for (JDIMENSION i = 0; i < n; i++) rows[i] = dst + (ptrdiff_t)(c->output_scanline + i) * stride;
        if (jpeg_read_scanlines(c, rows, n) == 0) {
            // Only a suspending data source returns no rows; a memory source never should.
            snprintf(d->err.message, sizeof d->err.message, "the JPEG decoder stalled at row %u",
                     c->output_scanline);
            return CJPEG_FAILED;
        }
    }
    if (d->err.truncated) {
        snprintf(d->err.message, sizeof d->err.message,
                 "the file ends before the picture does (truncated at row %u of %u)",
                 c->output_scanline, c->output_height);
        return CJPEG_TRUNCATED;
    }
    jpeg_finish_decompress(c);
    if (d->err.truncated) {
        snprintf(d->err.message, sizeof d->err.message, "the file ends before the picture does (truncated)");
        return CJPEG_TRUNCATED;
    }
    return CJPEG_OK;
}

cjpeg_status cjpeg_decode_region(cjpeg_decoder *d, int x, int y, int width, int height, uint8_t *dst,
                                  ptrdiff_t stride) {
    if (setjmp(d->err.jump)) return CJPEG_FAILED;
    struct jpeg_decompress_struct *c = &d->cinfo;
    if (x < 0 || y < 0 || width <= 0 || height <= 0 || (JDIMENSION)(x + width) > c->output_width ||
        (JDIMENSION)(y + height) > c->output_height) {
        snprintf(d->err.message, sizeof d->err.message, "region %dx%d+%d+%d outside the %ux%u picture", width,
                 height, x, y, c->output_width, c->output_height);
        return CJPEG_FAILED;
    }
    jpeg_start_decompress(c);
    // Only the columns asked for go through the IDCT and colour conversion; libjpeg widens
    // the span to whole blocks, so `left` says where the asked-for columns start in a row.
    JDIMENSION crop_x = (JDIMENSION)x, crop_w = (JDIMENSION)width;
    jpeg_crop_scanline(c, &crop_x, &crop_w);
    size_t left = (size_t)((JDIMENSION)x - crop_x) * 4;
    // Rows above are entropy-decoded only (no IDCT): what a baseline file without restart
    // markers allows, and most of the saving.
    if (y > 0 && jpeg_skip_scanlines(c, (JDIMENSION)y) != (JDIMENSION)y) {
        snprintf(d->err.message, sizeof d->err.message, "the JPEG ends before row %d", y);
        jpeg_abort_decompress(c);
        return CJPEG_FAILED;
    }
    // One row at the widened width, from libjpeg's pool so an error unwinding frees it.
    JSAMPARRAY row = (*c->mem->alloc_sarray)((j_common_ptr)c, JPOOL_IMAGE, crop_w * 4, 1);
    for (int i = 0; i < height; i++) {
        if (jpeg_read_scanlines(c, row, 1) != 1) {
            snprintf(d->err.message, sizeof d->err.message, "the JPEG decoder stalled at row %u", c->output_scanline);
            jpeg_abort_decompress(c);
            return CJPEG_FAILED;
        }
        memcpy(dst + (ptrdiff_t)i * stride, row[0] + left, (size_t)width * 4);
    }
    // The rows below are not wanted: stop here rather than decode them for nothing.
    jpeg_abort_decompress(c);
    if (d->err.truncated) {
        snprintf(d->err.message, sizeof d->err.message, "the file ends before the picture does (truncated above row %d)",
                 y + height);
        return CJPEG_TRUNCATED;
    }
    return CJPEG_OK;
}

const char *cjpeg_message(const cjpeg_decoder *d) { return d->err.message; }

int cjpeg_rows_present(const cjpeg_decoder *d) {
    unsigned int h = d->cinfo.output_height;
    if (!d->err.truncated || d->err.cut_rows == 0) return (int)h;
    return (int)((unsigned long long)h * d->err.cut_row / d->err.cut_rows);
}
