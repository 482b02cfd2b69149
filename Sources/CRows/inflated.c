#define _GNU_SOURCE
#include "inflated.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <isa-l/igzip_lib.h>

// The file is read a MiB at a time: a 300 MB scan in a few hundred system calls, and PNG
// encoders' small IDAT chunks (4 to 8 KiB) are walked in memory.
enum { file_buffer_size = 1 << 20 };

typedef enum { SOURCE_PNG, SOURCE_TIFF } source_kind;

struct inflated {
    int fd;
    source_kind kind;
    struct inflate_state *state;
    // The read-ahead of the file, and where in the file it stops.
    uint8_t *buffer;
    size_t buffered, used;
    off_t offset;
    // The compressed bytes of the piece not yet handed to the inflater: a PNG's IDAT chunk,
    // a TIFF strip.
    uint64_t piece_left;
    // A PNG's IDAT payloads gathered into one run for the inflater, and whether the chunks
    // after them are over (another kind of chunk, or the file's end).
    uint8_t *stream;
    int chunks_over;
    // Whether the stream's two-byte zlib header is still to come.
    int in_header;
    // TIFF: its strips, the next one, and the rows left in the one being inflated.
    uint64_t *offsets, *counts;
    uint32_t strips, next_strip, rows_per_strip, strip_rows_left;
    size_t row_bytes;
    int pixel_bytes, difference;
    // Rows are inflated ahead on a thread of their own, into a ring of `ring_rows` slots of
    // `slot` bytes (a PNG row after its filter byte), while the caller's thread reduces the
    // rows before them: the two halves of the work on the two cores.
    uint8_t *ring, *zeros;
    size_t slot, lead;
    uint32_t rows;
    pthread_t thread;
    int started, stopping, ended;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    // Rows inflated so far, and handed to the caller (the last one still in use).
    uint32_t produced, consumed;
    char message[160];
};

// Slots in the ring: 256 rows of a 20,000-pixel RGB picture are 15 MB.
enum { ring_rows = 256 };

// Keeps `why` for inflated_message; 0, for the callers that stop on it.
static int fail(inflated *d, const char *why) {
    snprintf(d->message, sizeof d->message, "%s", why);
    return 0;
}

// Reads the next part of the file into the buffer; 0 at its end or on an error.
static int refill(inflated *d) {
    for (;;) {
        ssize_t n = pread(d->fd, d->buffer, file_buffer_size, d->offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            fail(d, n == 0 ? "the file ends before the picture does" : "the file cannot be read");
            return 0;
        }
        d->offset += n;
        d->buffered = (size_t)n;
        d->used = 0;
        return 1;
    }
}

// Copies the next `n` bytes of the file (a chunk's checksum and header) into `out`.
static int take(inflated *d, uint8_t *out, size_t n) {
    while (n > 0) {
        if (d->used == d->buffered && !refill(d)) return 0;
        size_t step = d->buffered - d->used < n ? d->buffered - d->used : n;
        memcpy(out, d->buffer + d->used, step);
        d->used += step;
        out += step;
        n -= step;
    }
    return 1;
}

static uint32_t big_endian(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

// Copies the IDAT chunks' payloads, from where the last copy ended, into `out`: up to `room`
// bytes for one call of the inflater. Encoders cut the stream into chunks of 4 to 8 KiB, and
// ISA-L, at the end of each call, copies the 32 KiB it last wrote aside as the next call's
// history: a call a chunk was 2 GB of such copies for a 200 MP picture, on the thread every
// row waits for. The number of bytes copied; 0 at the end, with the reason kept.
static size_t gather_idat(inflated *d, uint8_t *out, size_t room) {
    size_t got = 0;
    while (got < room && !d->chunks_over) {
        if (d->piece_left == 0) {
            uint8_t head[12];
            // The checksum of the chunk before, then the next chunk's length and type.
            if (!take(d, head, sizeof head)) {
                d->chunks_over = 1;
            } else if (memcmp(head + 8, "IDAT", 4) != 0) {
                d->chunks_over = 1;
                fail(d, "the picture's data ends before its last row");
            } else {
                d->piece_left = big_endian(head + 4);
            }
            continue;
        }
        if (d->used == d->buffered && !refill(d)) {
            d->chunks_over = 1;
            break;
        }
        size_t step = d->buffered - d->used;
        if (step > d->piece_left) step = (size_t)d->piece_left;
        if (step > room - got) step = room - got;
        memcpy(out + got, d->buffer + d->used, step);
        d->used += step;
        d->piece_left -= step;
        got += step;
    }
    return got;
}

// Hands the inflater the next run of compressed bytes, once it has taken every one before:
// a PNG's gathered from its chunks, a TIFF strip's straight from the read-ahead.
static int more_input(inflated *d) {
    if (d->kind == SOURCE_PNG) {
        size_t n = gather_idat(d, d->stream, file_buffer_size);
        if (n == 0) return 0;
        d->state->next_in = d->stream;
        d->state->avail_in = (uint32_t)n;
        return 1;
    }
    if (d->piece_left == 0) return fail(d, "the picture's data ends before its last row");
    if (d->used == d->buffered && !refill(d)) return 0;
    size_t ready = d->buffered - d->used;
    if (ready > d->piece_left) ready = (size_t)d->piece_left;
    d->state->next_in = d->buffer + d->used;
    d->state->avail_in = (uint32_t)ready;
    d->used += ready;
    d->piece_left -= ready;
    return 1;
}

// The zlib wrapper's two bytes, checked and passed over. The stream is inflated raw: its
// Adler-32 would cost a twentieth of the time, for a checksum nothing would act on.
static int skip_zlib_header(inflated *d) {
    uint8_t h[2];
    for (int i = 0; i < 2; i++) {
        if (d->state->avail_in == 0 && !more_input(d)) return 0;
        h[i] = *d->state->next_in++;
        d->state->avail_in--;
    }
    if ((h[0] & 0x0f) != 8 || (h[0] >> 4) > 7 || ((h[0] << 8) | h[1]) % 31 != 0 || (h[1] & 0x20) != 0) {
        return fail(d, "the picture's compressed data is damaged");
    }
    d->in_header = 0;
    return 1;
}

// Starts a new stream: a PNG's, or each TIFF strip's.
static void begin_stream(inflated *d) {
    isal_inflate_init(d->state);
    d->state->crc_flag = ISAL_DEFLATE;
    d->in_header = 1;
}

// Inflates exactly `need` bytes into `out`. More of the file is asked for only once the
// inflater has nothing left to give: with every byte of its input taken it may still hold
// bits it read ahead, or the rest of a long match, and a solid picture's last few bytes make
// megabytes of rows. Asking for input then would find the file's next chunk, not deflate.
static int fill(inflated *d, uint8_t *out, size_t need) {
    struct inflate_state *s = d->state;
    if (d->in_header && !skip_zlib_header(d)) return 0;
    s->next_out = out;
    s->avail_out = (uint32_t)need;
    int starved = 0;
    while (s->avail_out > 0) {
        if (s->block_state == ISAL_BLOCK_FINISH) return fail(d, "the picture's data ends before its last row");
        if (s->avail_in == 0 && starved && !more_input(d)) return 0;
        uint32_t in = s->avail_in, left = s->avail_out;
        int status = isal_inflate(s);
        uint32_t consumed = in - s->avail_in;
        if (status < 0) return fail(d, "the picture's compressed data is damaged");
        if (consumed > 0 || s->avail_out != left) {
            starved = 0;
        } else if (in > 0 && s->block_state != ISAL_BLOCK_FINISH) {
            // Input it would not take, and nothing out.
            return fail(d, "the picture's compressed data is damaged");
        } else {
            starved = 1;
        }
    }
    return 1;
}

static inflated *make(int fd, source_kind kind, uint32_t rows, size_t row_bytes, int pixel_bytes) {
    inflated *d = calloc(1, sizeof *d);
    if (d == NULL) return NULL;
    d->fd = fd;
    d->kind = kind;
    d->rows = rows;
    d->row_bytes = row_bytes;
    d->pixel_bytes = pixel_bytes;
    // A PNG row's filter byte comes before it in the stream, and stays in its slot.
    d->lead = kind == SOURCE_PNG ? 1 : 0;
    d->slot = row_bytes + (size_t)d->lead;
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->changed, NULL);
    d->state = malloc(sizeof *d->state);
    d->buffer = malloc(file_buffer_size);
    d->stream = kind == SOURCE_PNG ? malloc(file_buffer_size) : NULL;
    d->ring = malloc(d->slot * ring_rows);
    d->zeros = calloc(1, d->slot);
    if (d->state == NULL || d->buffer == NULL || d->ring == NULL || d->zeros == NULL || (kind == SOURCE_PNG && d->stream == NULL)) {
        inflated_free(d);
        return NULL;
    }
    begin_stream(d);
    return d;
}

inflated *inflated_png(int fd, off_t payload, uint32_t length, uint32_t height, size_t row_bytes, int pixel_bytes) {
    inflated *d = make(fd, SOURCE_PNG, height, row_bytes, pixel_bytes);
    if (d == NULL) return NULL;
    d->offset = payload;
    d->piece_left = length;
    return d;
}

inflated *inflated_tiff(int fd, const uint64_t *offsets, const uint64_t *counts, uint32_t strips,
                        uint32_t rows_per_strip, uint32_t height, size_t row_bytes, int pixel_bytes, int difference) {
    inflated *d = make(fd, SOURCE_TIFF, height, row_bytes, pixel_bytes);
    if (d == NULL) return NULL;
    d->offsets = malloc(strips * sizeof *offsets);
    d->counts = malloc(strips * sizeof *counts);
    if (d->offsets == NULL || d->counts == NULL) {
        inflated_free(d);
        return NULL;
    }
    memcpy(d->offsets, offsets, strips * sizeof *offsets);
    memcpy(d->counts, counts, strips * sizeof *counts);
    d->strips = strips;
    d->rows_per_strip = rows_per_strip;
    d->difference = difference;
    return d;
}

// Sub, Average and Paeth refer to the pixel just undone. With the pixel's size a constant the
// compiler keeps that pixel in registers instead of reading back each byte it has just
// stored, which made Average, the filter libpng and FFmpeg choose most for photos, take
// 0.46 s of a 200 MP picture's rows. Above the first pixel and left of the first row the
// references are zeros, which these loops start from.
#define CROWS_UNFILTERS(BPP)                                                                            \
    static void sub_##BPP(uint8_t *row, size_t n) {                                                     \
        uint8_t a[BPP] = {0};                                                                           \
        for (size_t i = 0; i < n; i += BPP)                                                             \
            for (int k = 0; k < BPP; k++) row[i + k] = a[k] = (uint8_t)(row[i + k] + a[k]);            \
    }                                                                                                   \
    static void average_##BPP(uint8_t *row, const uint8_t *prev, size_t n) {                            \
        uint8_t a[BPP] = {0};                                                                           \
        for (size_t i = 0; i < n; i += BPP)                                                             \
            for (int k = 0; k < BPP; k++) row[i + k] = a[k] = (uint8_t)(row[i + k] + ((a[k] + prev[i + k]) >> 1)); \
    }                                                                                                   \
    static void paeth_##BPP(uint8_t *row, const uint8_t *prev, size_t n) {                              \
        uint8_t a[BPP] = {0}, c[BPP] = {0};                                                             \
        for (size_t i = 0; i < n; i += BPP)                                                             \
            for (int k = 0; k < BPP; k++) {                                                             \
                int b = prev[i + k], pa = abs(b - c[k]), pb = abs(a[k] - c[k]), pc = abs(a[k] + b - 2 * c[k]); \
                int predicted = pa <= pb && pa <= pc ? a[k] : pb <= pc ? b : c[k];                      \
                row[i + k] = a[k] = (uint8_t)(row[i + k] + predicted);                                  \
                c[k] = (uint8_t)b;                                                                      \
            }                                                                                           \
    }
CROWS_UNFILTERS(1)
CROWS_UNFILTERS(2)
CROWS_UNFILTERS(3)
CROWS_UNFILTERS(4)
CROWS_UNFILTERS(6)
CROWS_UNFILTERS(8)

// PNG's five filters undone in place, `prev` the row above unfiltered (zeros above the first);
// `n` is a whole number of `bpp`-byte pixels: 1 to 4 channels of 8 or 16 bits.
static int unfilter(uint8_t filter, uint8_t *row, const uint8_t *prev, size_t n, size_t bpp) {
    if (filter == 0) return 1;
    if (filter == 2) {
        for (size_t i = 0; i < n; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        return 1;
    }
    if (filter > 4) return 0;
#define CROWS_UNFILTER_CASE(BPP)                              \
    case BPP:                                                 \
        if (filter == 1) sub_##BPP(row, n);                   \
        else if (filter == 3) average_##BPP(row, prev, n);    \
        else paeth_##BPP(row, prev, n);                       \
        return 1;
    switch (bpp) {
        CROWS_UNFILTER_CASE(1)
        CROWS_UNFILTER_CASE(2)
        CROWS_UNFILTER_CASE(3)
        CROWS_UNFILTER_CASE(4)
        CROWS_UNFILTER_CASE(6)
        CROWS_UNFILTER_CASE(8)
    default:
        return 0;
    }
#undef CROWS_UNFILTER_CASE
}

// Rows inflated at a time, as far as the ring's end. After each call the inflater copies the
// last 32 KiB it wrote, its history for the next: per row of 60 KB that was half as much
// again, per 64 rows it is 1 %.
enum { batch_rows = 64 };

// Inflates up to `most` rows from `row` on into their slots, which lie one after another;
// the number made, 0 on a failure. A TIFF's batch ends with its strip.
static uint32_t produce_rows(inflated *d, uint32_t row, uint32_t most) {
    if (d->kind == SOURCE_TIFF) {
        if (d->strip_rows_left == 0) {
            if (d->next_strip >= d->strips) return fail(d, "the picture has fewer strips than rows");
            uint32_t left = d->rows - row;
            d->strip_rows_left = d->rows_per_strip < left ? d->rows_per_strip : left;
            d->offset = (off_t)d->offsets[d->next_strip];
            d->piece_left = d->counts[d->next_strip];
            d->next_strip++;
            d->buffered = d->used = 0;
            begin_stream(d);
        }
        if (most > d->strip_rows_left) most = d->strip_rows_left;
    }
    if (!fill(d, d->ring + (size_t)(row % ring_rows) * d->slot, most * d->slot)) return 0;
    if (d->kind == SOURCE_TIFF) d->strip_rows_left -= most;
    return most;
}

// The thread that inflates ahead, a batch at a time into the free slots, until the last row,
// a failure (kept in `message`, and `ended` with fewer rows produced) or inflated_free.
static void *produce(void *argument) {
    inflated *d = argument;
    uint32_t row = 0;
    while (row < d->rows) {
        pthread_mutex_lock(&d->lock);
        // The slots of the row the caller holds and of the one above it stay as they are.
        while (!d->stopping && row + 2 >= d->consumed + ring_rows) pthread_cond_wait(&d->changed, &d->lock);
        uint32_t free_rows = d->consumed + ring_rows - 2 - row;
        int stopping = d->stopping;
        pthread_mutex_unlock(&d->lock);
        if (stopping) break;
        uint32_t most = ring_rows - row % ring_rows;
        if (most > free_rows) most = free_rows;
        if (most > batch_rows) most = batch_rows;
        if (most > d->rows - row) most = d->rows - row;
        uint32_t made = produce_rows(d, row, most);
        row += made;
        pthread_mutex_lock(&d->lock);
        d->produced = row;
        pthread_cond_broadcast(&d->changed);
        pthread_mutex_unlock(&d->lock);
        if (made == 0) break;
    }
    pthread_mutex_lock(&d->lock);
    d->ended = 1;
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

// Undoes a row's filter or predictor on the caller's thread, which has less to do than the
// inflater's: `above` is the row before, already undone (zeros above the first).
static int restore(inflated *d, uint8_t *slot, const uint8_t *above) {
    if (d->kind == SOURCE_PNG) return unfilter(slot[0], slot + 1, above + 1, d->row_bytes, (size_t)d->pixel_bytes);
    if (d->difference) {
        size_t step = (size_t)d->pixel_bytes;
        for (size_t i = step; i < d->row_bytes; i++) slot[i] = (uint8_t)(slot[i] + slot[i - step]);
    }
    return 1;
}

const uint8_t *inflated_next(inflated *d) {
    pthread_mutex_lock(&d->lock);
    if (!d->started) {
        d->started = pthread_create(&d->thread, NULL, produce, d) == 0 ? 1 : -1;
        if (d->started < 0) {
            pthread_mutex_unlock(&d->lock);
            fail(d, "no thread can be started to read the picture");
            return NULL;
        }
    }
    while (d->produced <= d->consumed && !d->ended) pthread_cond_wait(&d->changed, &d->lock);
    uint32_t row = d->consumed;
    int ready = d->produced > row;
    if (!ready && row >= d->rows) fail(d, "rows asked for past the end of the picture");
    pthread_mutex_unlock(&d->lock);
    if (!ready) return NULL;
    uint8_t *slot = d->ring + (size_t)(row % ring_rows) * d->slot;
    const uint8_t *above = row == 0 ? d->zeros : d->ring + (size_t)((row - 1) % ring_rows) * d->slot;
    if (!restore(d, slot, above)) {
        // Rows past this one are not handed out: the producer may stop where it is.
        fail(d, "a row of the picture has an unknown filter");
        return NULL;
    }
    pthread_mutex_lock(&d->lock);
    d->consumed++;
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->lock);
    return slot + d->lead;
}

const char *inflated_message(const inflated *d) { return d->message[0] ? d->message : "the picture's data is damaged"; }

void inflated_free(inflated *d) {
    if (d == NULL) return;
    if (d->started > 0) {
        pthread_mutex_lock(&d->lock);
        d->stopping = 1;
        pthread_cond_broadcast(&d->changed);
        pthread_mutex_unlock(&d->lock);
        pthread_join(d->thread, NULL);
    }
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->changed);
    free(d->state);
    free(d->buffer);
    free(d->stream);
    free(d->ring);
    free(d->zeros);
    free(d->offsets);
    free(d->counts);
    free(d);
}
