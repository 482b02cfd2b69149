#define _GNU_SOURCE
#include "cframeshare.h"

#include <errno.h>
#include <fcntl.h>
#include <libavutil/imgutils.h>
#include <libavutil/channel_layout.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// Room after each plane: libavcodec's own allocator leaves 16 + STRIDE_ALIGN - 1 bytes,
// which SIMD loops that read past a row's end rely on.
enum { PLANE_PAD = 16 + 64 - 1, PLANE_ALIGN = 64 };

typedef struct {
    int64_t id;
    int fd;
    uint8_t *base;
    size_t size;
    int busy;
} cfs_slot;

struct cfs_pool {
    pthread_mutex_t lock;
    cfs_slot *slots;
    int count, max;
    int64_t next_id;
    // One for the owner and one per slot handed out: the pool lives while any frame does.
    int refs;
};

cfs_pool *cfs_pool_new(int max_slots) {
    cfs_pool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->slots = calloc((size_t)max_slots, sizeof *pool->slots);
    if (!pool->slots) { free(pool); return NULL; }
    pthread_mutex_init(&pool->lock, NULL);
    pool->max = max_slots;
    pool->next_id = 1;
    pool->refs = 1;
    return pool;
}

static void drop_slot(cfs_slot *s) {
    if (s->base) munmap(s->base, s->size);
    if (s->fd >= 0) close(s->fd);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

static void unref(cfs_pool *pool) {
    // Called with the lock held; frees the pool (and unlocks nothing) when the last goes.
    if (--pool->refs > 0) { pthread_mutex_unlock(&pool->lock); return; }
    for (int i = 0; i < pool->count; i++) drop_slot(&pool->slots[i]);
    pthread_mutex_unlock(&pool->lock);
    pthread_mutex_destroy(&pool->lock);
    free(pool->slots);
    free(pool);
}

void cfs_pool_free(cfs_pool *pool) {
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    unref(pool);
}

static void release_slot(void *opaque, uint8_t *data) {
    cfs_pool *pool = opaque;
    pthread_mutex_lock(&pool->lock);
    for (int i = 0; i < pool->count; i++) {
        if (pool->slots[i].base == data) { pool->slots[i].busy = 0; break; }
    }
    unref(pool);
}

// A free slot of exactly `size` bytes, or a new one; with the lock held. A pool at its
// limit gives up a free slot of another size (the picture's size changed) for the new one.
static cfs_slot *take(cfs_pool *pool, size_t size) {
    cfs_slot *spare = NULL;
    for (int i = 0; i < pool->count; i++) {
        cfs_slot *s = &pool->slots[i];
        if (s->busy) continue;
        if (s->size == size) return s;
        if (!spare) spare = s;
    }
    cfs_slot *s;
    if (pool->count < pool->max) s = &pool->slots[pool->count++];
    else if (spare) { drop_slot(spare); s = spare; }
    else return NULL;
    memset(s, 0, sizeof *s);
    s->fd = memfd_create("mediaview-frame", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    // The viewer maps it: it must never shrink under that mapping (a read past its end
    // would be SIGBUS in the viewer), so its size is sealed; the pixels are not.
    if (s->fd < 0 || ftruncate(s->fd, (off_t)size) != 0
        || fcntl(s->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) goto fail;
    s->base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
    if (s->base == MAP_FAILED) { s->base = NULL; goto fail; }
    s->size = size;
    s->id = pool->next_id++;
    return s;
fail:
    drop_slot(s);
    if (s == &pool->slots[pool->count - 1]) pool->count--;
    return NULL;
}

// libavcodec's own layout: widen the width until every plane's line is a multiple of its
// alignment, then each plane with its padding, each starting aligned.
static int layout(int format, int width, int height, const int align[4], int linesizes[4], size_t offsets[4],
                  size_t *total) {
    int w = width;
    for (int tries = 0;; tries++) {
        if (av_image_fill_linesizes(linesizes, format, w) < 0 || tries > 32) return AVERROR(EINVAL);
        int unaligned = 0;
        for (int i = 0; i < 4; i++) unaligned |= align[i] > 0 && linesizes[i] % align[i];
        if (!unaligned) break;
        w += w & ~(w - 1);
    }
    ptrdiff_t lines[4];
    size_t sizes[4];
    for (int i = 0; i < 4; i++) lines[i] = linesizes[i];
    if (av_image_fill_plane_sizes(sizes, format, height, lines) < 0) return AVERROR(EINVAL);
    size_t at = 0;
    for (int i = 0; i < 4; i++) {
        offsets[i] = at;
        if (!sizes[i]) continue;
        if (sizes[i] > (size_t)INT_MAX) return AVERROR(EINVAL);
        at = (at + sizes[i] + PLANE_PAD + PLANE_ALIGN - 1) & ~(size_t)(PLANE_ALIGN - 1);
    }
    *total = at;
    return at ? 0 : AVERROR(EINVAL);
}

// A slot of `total` bytes for `frame`, as its one buffer: the slot's memory, or NULL.
static uint8_t *claim(cfs_pool *pool, AVFrame *frame, size_t total) {
    pthread_mutex_lock(&pool->lock);
    cfs_slot *s = take(pool, total);
    if (s) frame->buf[0] = av_buffer_create(s->base, total, release_slot, pool, 0);
    if (!s || !frame->buf[0]) { pthread_mutex_unlock(&pool->lock); return NULL; }
    s->busy = 1;
    pool->refs++;
    uint8_t *base = s->base;
    pthread_mutex_unlock(&pool->lock);
    return base;
}

static int fill(cfs_pool *pool, AVFrame *frame, int width, int height, const int align[4]) {
    int linesizes[4];
    size_t offsets[4], total;
    int r = layout(frame->format, width, height, align, linesizes, offsets, &total);
    if (r < 0) return r;
    uint8_t *base = claim(pool, frame, total);
    if (!base) return AVERROR(ENOMEM);
    ptrdiff_t lines[4];
    size_t sizes[4];
    for (int i = 0; i < 4; i++) lines[i] = linesizes[i];
    av_image_fill_plane_sizes(sizes, frame->format, height, lines);
    for (int i = 0; i < 4; i++) {
        frame->data[i] = sizes[i] ? base + offsets[i] : NULL;
        frame->linesize[i] = sizes[i] ? linesizes[i] : 0;
    }
    frame->extended_data = frame->data;
    return 0;
}

// Sound: every channel's plane (or the one interleaved plane) the same size, one after
// the other, each aligned, as libavcodec lays a planar frame out.
static int fill_sound(cfs_pool *pool, AVFrame *frame) {
    int channels = frame->ch_layout.nb_channels, linesize;
    int planes = av_sample_fmt_is_planar(frame->format) ? channels : 1;
    if (channels <= 0 || planes > AV_NUM_DATA_POINTERS || frame->nb_samples <= 0) return AVERROR(EINVAL);
    if (av_samples_get_buffer_size(&linesize, channels, frame->nb_samples, frame->format, PLANE_ALIGN) < 0)
        return AVERROR(EINVAL);
    size_t stride = ((size_t)linesize + PLANE_PAD + PLANE_ALIGN - 1) & ~(size_t)(PLANE_ALIGN - 1);
    size_t total = stride * (size_t)planes;
    uint8_t *base = claim(pool, frame, total);
    if (!base) return AVERROR(ENOMEM);
    for (int i = 0; i < AV_NUM_DATA_POINTERS; i++) frame->data[i] = i < planes ? base + stride * (size_t)i : NULL;
    frame->linesize[0] = linesize;
    frame->extended_data = frame->data;
    return 0;
}

int cfs_get_buffer2(AVCodecContext *ctx, AVFrame *frame, int flags) {
    cfs_pool *pool = ctx->opaque;
    // Decoders that cannot render into buffers of ours must use libavcodec's own; their
    // frames are copied into a slot instead (cfs_copy_into_slot).
    if (!pool || !(ctx->codec->capabilities & AV_CODEC_CAP_DR1)) return avcodec_default_get_buffer2(ctx, frame, flags);
    if (ctx->codec_type == AVMEDIA_TYPE_AUDIO) {
        if (frame->ch_layout.nb_channels > AV_NUM_DATA_POINTERS) return avcodec_default_get_buffer2(ctx, frame, flags);
        return fill_sound(pool, frame);
    }
    if (ctx->codec_type != AVMEDIA_TYPE_VIDEO) return avcodec_default_get_buffer2(ctx, frame, flags);
    int w = frame->width, h = frame->height;
    if (w <= 0 || h <= 0) return AVERROR(EINVAL);
    int align[AV_NUM_DATA_POINTERS] = {0};
    avcodec_align_dimensions2(ctx, &w, &h, align);
    return fill(pool, frame, w, h, align);
}

int cfs_copy_into_slot(cfs_pool *pool, const AVFrame *frame, AVFrame *out) {
    static const int align[4] = {PLANE_ALIGN, PLANE_ALIGN, PLANE_ALIGN, PLANE_ALIGN};
    if (frame->nb_samples > 0) {
        int r;
        out->format = frame->format;
        out->nb_samples = frame->nb_samples;
        out->sample_rate = frame->sample_rate;
        if ((r = av_channel_layout_copy(&out->ch_layout, &frame->ch_layout)) < 0) return r;
        if ((r = fill_sound(pool, out)) < 0) return r;
        if ((r = av_frame_copy(out, frame)) < 0) return r;
        return av_frame_copy_props(out, frame);
    }
    if (frame->width <= 0 || frame->height <= 0) return AVERROR(EINVAL);
    out->format = frame->format;
    out->width = frame->width;
    out->height = frame->height;
    int r = fill(pool, out, frame->width, frame->height, align);
    if (r < 0) return r;
    if ((r = av_frame_copy(out, frame)) < 0) return r;
    return av_frame_copy_props(out, frame);
}

int cfs_locate(cfs_pool *pool, const AVFrame *frame, cfs_place *place) {
    if (!frame->buf[0] || frame->buf[1] || !frame->data[0]) return -1;
    int found = -1;
    pthread_mutex_lock(&pool->lock);
    for (int i = 0; i < pool->count; i++) {
        cfs_slot *s = &pool->slots[i];
        if (s->base && frame->data[0] >= s->base && frame->data[0] < s->base + s->size) { found = i; break; }
    }
    if (found < 0) { pthread_mutex_unlock(&pool->lock); return -1; }
    cfs_slot *s = &pool->slots[found];
    for (int i = 0; i < 4; i++) {
        if (!frame->data[i]) { place->offsets[i] = 0; continue; }
        if (frame->data[i] < s->base || frame->data[i] >= s->base + s->size) { pthread_mutex_unlock(&pool->lock); return -1; }
        place->offsets[i] = frame->data[i] - s->base;
    }
    place->slot = s->id;
    place->fd = s->fd;
    s->fd = -1;
    pthread_mutex_unlock(&pool->lock);
    return 0;
}

int cfs_sound_layout(const AVFrame *frame, const cfs_place *place, int64_t *offset, int64_t *stride) {
    int planes = av_sample_fmt_is_planar(frame->format) ? frame->ch_layout.nb_channels : 1;
    if (planes < 1 || planes > AV_NUM_DATA_POINTERS || frame->extended_data != frame->data) return -1;
    int64_t step = planes > 1 ? place->offsets[1] - place->offsets[0] : frame->linesize[0];
    for (int i = 2; i < planes && i < 4; i++) if (place->offsets[i] - place->offsets[i - 1] != step) return -1;
    for (int i = 4; i < planes; i++) if (frame->data[i] - frame->data[i - 1] != step) return -1;
    if (step < frame->linesize[0]) return -1;
    *offset = place->offsets[0];
    *stride = step;
    return 0;
}

int cfs_fits_sound(int format, int channels, int samples, int64_t offset, int64_t stride, size_t size) {
    int bytes = av_get_bytes_per_sample(format);
    if (bytes <= 0 || channels < 1 || channels > AV_NUM_DATA_POINTERS || samples < 1 || samples > (1 << 20)) return 0;
    int planar = av_sample_fmt_is_planar(format);
    int planes = planar ? channels : 1;
    int64_t line = (int64_t)samples * bytes * (planar ? 1 : channels);
    if (stride < line || stride > INT_MAX || offset < 0) return 0;
    uint64_t end = (uint64_t)offset + (uint64_t)stride * (uint64_t)(planes - 1) + (uint64_t)line;
    return end <= size;
}

int cfs_wrap_sound(AVFrame *frame, uint8_t *base, size_t size, int64_t offset, int64_t stride,
                   void (*release)(void *opaque, uint8_t *data), void *opaque) {
    int planar = av_sample_fmt_is_planar(frame->format);
    int planes = planar ? frame->ch_layout.nb_channels : 1;
    int bytes = av_get_bytes_per_sample(frame->format);
    if (planes < 1 || planes > AV_NUM_DATA_POINTERS || bytes <= 0) return AVERROR(EINVAL);
    frame->buf[0] = av_buffer_create(base, size, release, opaque, AV_BUFFER_FLAG_READONLY);
    if (!frame->buf[0]) return AVERROR(ENOMEM);
    for (int i = 0; i < AV_NUM_DATA_POINTERS; i++) frame->data[i] = i < planes ? base + offset + stride * i : NULL;
    // A sound frame's linesize[0] is one plane's bytes.
    frame->linesize[0] = frame->nb_samples * bytes * (planar ? 1 : frame->ch_layout.nb_channels);
    frame->extended_data = frame->data;
    return 0;
}

int cfs_map_slot(int fd, uint8_t **base, size_t *size) {
    int seals = fcntl(fd, F_GET_SEALS);
    struct stat st;
    if (seals < 0 || !(seals & F_SEAL_SHRINK) || fstat(fd, &st) != 0 || st.st_size <= 0) return -1;
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) return -1;
    *base = p;
    *size = (size_t)st.st_size;
    return 0;
}

void cfs_unmap_slot(uint8_t *base, size_t size) { munmap(base, size); }

int cfs_fits(int format, int width, int height, const int64_t offsets[4], const int64_t linesizes[4], size_t size) {
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(format);
    if (!d || (d->flags & (AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BITSTREAM))) return 0;
    if (width <= 0 || height <= 0 || width > 65536 || height > 65536) return 0;
    int least[4];
    if (av_image_fill_linesizes(least, format, width) < 0) return 0;
    ptrdiff_t lines[4];
    for (int i = 0; i < 4; i++) {
        if (linesizes[i] < least[i] || linesizes[i] > INT_MAX) return 0;
        lines[i] = (ptrdiff_t)linesizes[i];
    }
    size_t sizes[4];
    if (av_image_fill_plane_sizes(sizes, format, height, lines) < 0) return 0;
    for (int i = 0; i < 4; i++) {
        if (!sizes[i]) continue;
        if (offsets[i] < 0 || (uint64_t)offsets[i] > size || sizes[i] > size - (size_t)offsets[i]) return 0;
    }
    return 1;
}

int cfs_wrap(AVFrame *frame, uint8_t *base, size_t size, const int64_t offsets[4], const int64_t linesizes[4],
             void (*release)(void *opaque, uint8_t *data), void *opaque) {
    frame->buf[0] = av_buffer_create(base, size, release, opaque, AV_BUFFER_FLAG_READONLY);
    if (!frame->buf[0]) return AVERROR(ENOMEM);
    ptrdiff_t lines[4];
    size_t sizes[4];
    for (int i = 0; i < 4; i++) lines[i] = (ptrdiff_t)linesizes[i];
    av_image_fill_plane_sizes(sizes, frame->format, frame->height, lines);
    for (int i = 0; i < 4; i++) {
        frame->data[i] = sizes[i] ? base + offsets[i] : NULL;
        frame->linesize[i] = sizes[i] ? (int)linesizes[i] : 0;
    }
    frame->extended_data = frame->data;
    return 0;
}
