#ifndef MEDIAVIEW_CFRAMESHARE_H
#define MEDIAVIEW_CFRAMESHARE_H

// Video and sound frames decoded by a sandboxed worker straight into memory the viewer
// also maps.
//
// The worker's libavcodec is given a get_buffer2 that carves every frame out of a memfd
// (a "slot"), so the decoder writes the pixels where the viewer reads them: a frame
// crosses the process boundary as a slot number and plane offsets, never as a copy.
// C because libavcodec calls get_buffer2 and the buffers' free callbacks from its own
// threads, under a lock, with pointer arithmetic over its planes.

#include <libavcodec/avcodec.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The worker's slots of one video: memfds mapped read-write, reused once neither the
// decoder nor the viewer holds the frame in them.
typedef struct cfs_pool cfs_pool;

// A new pool; NULL without memory. At most `max_slots` slots are made.
cfs_pool *cfs_pool_new(int max_slots);
// Unmaps and closes every slot; call once the decoder and every frame held are freed.
void cfs_pool_free(cfs_pool *pool);
// libavcodec's get_buffer2, for a decoder whose `opaque` is a pool: the frame's planes
// are laid out as libavcodec's own allocator does (aligned, padded), in one slot. Sound
// with more channels than an AVFrame has plane pointers gets libavcodec's own buffers.
int cfs_get_buffer2(AVCodecContext *ctx, AVFrame *frame, int flags);

// Where a decoded frame lives: its slot, and each plane's offset in it.
typedef struct {
    int64_t slot;
    // The slot's memfd when the viewer has not been given it yet (now counted as given,
    // and the caller closes it after sending); -1 otherwise.
    int fd;
    int64_t offsets[4];
} cfs_place;

// Where `frame` is, if its pixels are in one of the pool's slots: 0, or -1 when they are
// not (a decoder without direct rendering, or one that returns its input's buffer).
int cfs_locate(cfs_pool *pool, const AVFrame *frame, cfs_place *place);
// Copies `frame` into a new frame `out` whose pixels are in a slot, with its properties.
int cfs_copy_into_slot(cfs_pool *pool, const AVFrame *frame, AVFrame *out);

// Viewer side: maps a slot's memfd read-only, once its size is sealed (so the worker can
// never make a read of it fault); 0, or -1 for a memfd that is not such a slot.
int cfs_map_slot(int fd, uint8_t **base, size_t *size);
// Viewer side: unmaps a slot mapped with cfs_map_slot.
void cfs_unmap_slot(uint8_t *base, size_t size);
// Viewer side: whether planes at `offsets` with `linesizes` for a `format` picture of
// `width` x `height` all lie within `size` bytes: 1 yes, 0 no. The worker is not trusted,
// so nothing of a frame is read until this holds.
int cfs_fits(int format, int width, int height, const int64_t offsets[4], const int64_t linesizes[4], size_t size);
// Viewer side, for sound: whether `channels` planes (or one, interleaved) of `samples`
// samples of `format`, the first at `offset` and each next one `stride` further, lie
// within `size` bytes: 1 yes, 0 no.
int cfs_fits_sound(int format, int channels, int samples, int64_t offset, int64_t stride, size_t size);
// Viewer side, for sound: points `frame`'s planes into `base` (checked with
// cfs_fits_sound) as cfs_wrap does; `frame` has its format, sample count and channel
// layout set.
int cfs_wrap_sound(AVFrame *frame, uint8_t *base, size_t size, int64_t offset, int64_t stride,
                   void (*release)(void *opaque, uint8_t *data), void *opaque);
// Worker side, for sound: the first plane's offset in its slot and the stride between
// planes, for a frame cfs_locate found; 0, or -1 for planes not evenly laid out.
int cfs_sound_layout(const AVFrame *frame, const cfs_place *place, int64_t *offset, int64_t *stride);
// Viewer side: points `frame`'s planes into `base` (already checked with cfs_fits) and
// gives it one read-only buffer reference whose end calls `release(opaque, base)`.
int cfs_wrap(AVFrame *frame, uint8_t *base, size_t size, const int64_t offsets[4], const int64_t linesizes[4],
             void (*release)(void *opaque, uint8_t *data), void *opaque);

#ifdef __cplusplus
}
#endif

#endif
