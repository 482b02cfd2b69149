#ifndef MEDIAVIEW_CFFMPEG_SHIM_H
#define MEDIAVIEW_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/base64.h>
#include <libavutil/aes.h>
#include <libavutil/md5.h>
#include <libavutil/sha.h>
#include <libavutil/channel_layout.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "light.h"

// AVERROR(e) is a function-like macro.
static inline int cff_averror(int e) { return AVERROR(e); }
// AVERROR_EOF is built with FFERRTAG, an expression macro Swift does not import.
static const int cff_averror_eof = AVERROR_EOF;
// AVERROR_EXIT likewise (returned when our interrupt callback aborts I/O).
static const int cff_averror_exit = AVERROR_EXIT;
// AVERROR_INVALIDDATA likewise.
static const int cff_averror_invaliddata = AVERROR_INVALIDDATA;
// AV_NOPTS_VALUE is an INT64_C cast macro.
static const int64_t cff_nopts = AV_NOPTS_VALUE;
// AV_TIME_BASE_Q is a compound literal.
static inline AVRational cff_time_base_q(void) { return AV_TIME_BASE_Q; }
// AVSEEK_FLAG_BACKWARD is imported, but the seek helpers read better with one call.
static inline int cff_seek_backward(void) { return AVSEEK_FLAG_BACKWARD; }
// Linux's nice is per thread, by thread id, and gettid() has no prototype without
// _GNU_SOURCE: the decoding threads that must yield (track previews) lower their own.
static inline int cff_nice_this_thread(int nice) { return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice); }
// A frame over memory of our own (a worker's still) is made without libavutil, so that a
// viewer showing only pictures never loads FFmpeg: av_frame_alloc's defaults, set here.
static inline AVFrame *cff_plain_frame(void) {
    AVFrame *f = (AVFrame *)calloc(1, sizeof(AVFrame));
    if (f == NULL) return NULL;
    f->pts = f->pkt_dts = f->best_effort_timestamp = AV_NOPTS_VALUE;
    f->sample_aspect_ratio = (AVRational){0, 1};
    f->time_base = (AVRational){0, 1};
    f->format = -1;
    f->key_frame = 1;
    f->color_primaries = AVCOL_PRI_UNSPECIFIED;
    f->color_trc = AVCOL_TRC_UNSPECIFIED;
    f->colorspace = AVCOL_SPC_UNSPECIFIED;
    f->color_range = AVCOL_RANGE_UNSPECIFIED;
    f->chroma_location = AVCHROMA_LOC_UNSPECIFIED;
    f->extended_data = f->data;
    return f;
}
// A second plain frame describing the same planes as `src` (a zoomed still's visible part is
// then a change of its first plane's start and size): no buffer references, no side data,
// and `extended_data` pointing at its own `data`, which a struct copy in Swift cannot set.
static inline AVFrame *cff_plain_view(const AVFrame *src) {
    AVFrame *f = (AVFrame *)malloc(sizeof(AVFrame));
    if (f == NULL) return NULL;
    *f = *src;
    for (int i = 0; i < AV_NUM_DATA_POINTERS; i++) f->buf[i] = NULL;
    f->extended_buf = NULL;
    f->nb_extended_buf = 0;
    f->side_data = NULL;
    f->nb_side_data = 0;
    f->metadata = NULL;
    f->hw_frames_ctx = NULL;
    f->opaque_ref = NULL;
    f->private_ref = NULL;
    f->extended_data = f->data;
    return f;
}

#endif
