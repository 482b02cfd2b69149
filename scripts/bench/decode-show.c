/*
 * scripts/bench/decode-show.c: the floor of the bench's (a), every picture of a 1080p video
 * shown in a 1280x720 window as fast as it decodes.
 *
 * What any player that decodes with FFmpeg and shows each picture through this X server must
 * spend, and nothing else: the decode with FFmpeg's threads as its own command line sets them,
 * and each picture handed to the X server through MIT-SHM, one in flight at a time, as a
 * player does that writes the next picture while the server reads the last. A real player
 * also turns each decoded picture into the window's size and pixel format; `touch` charges
 * only the memory traffic no conversion can avoid (every byte of the decoded planes read once,
 * every byte of the window's picture written once) and none of the arithmetic.
 *
 *   decode-show FILE FRAMES decode   decode only, in this process
 *   decode-show FILE FRAMES show     decode, and put an unchanged 1280x720 picture per frame
 *   decode-show FILE FRAMES touch    as show, and read each frame's planes and write the picture
 *   decode-show FILE FRAMES fit      as show, each picture scaled into the window with the viewer's
 *                                    own kernels (Sources/CScale, built in with -DWITH_CSCALE), on
 *                                    the thread that takes it from the decoder, in this process:
 *                                    the conversion's arithmetic with no sandbox and no hand-over
 *   decode-show FILE FRAMES play     the floor of (c): as touch, in real time (each picture put at
 *                                    its time), on one decoder thread, the sound decoded too and
 *                                    played nowhere; FRAMES 0 plays the whole file
 *   decode-show FILE FRAMES hear     as play, with what a player cannot leave out: each picture
 *                                    turned into the window's pixels by libswscale (its arithmetic,
 *                                    not only its memory traffic), and the sound resampled by
 *                                    libswresample and played through PulseAudio from a thread
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <emmintrin.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <pthread.h>
#include <pulse/simple.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <time.h>

enum { WIDTH = 1280, HEIGHT = 720 };

struct screen {
    Display *display;
    Window window;
    GC gc;
    int completion;
    XImage *image;
    XShmSegmentInfo segment;
    int in_flight;
};

// A mapped 1280x720 window with one shared picture; the X server copies only into what shows.
static int open_screen(struct screen *s) {
    s->display = XOpenDisplay(NULL);
    if (s->display == NULL || !XShmQueryExtension(s->display)) return -1;
    int screen = DefaultScreen(s->display);
    XSetWindowAttributes a = {.override_redirect = True, .background_pixel = 0, .event_mask = StructureNotifyMask};
    s->window = XCreateWindow(s->display, DefaultRootWindow(s->display), 0, 0, WIDTH, HEIGHT, 0, CopyFromParent,
                              InputOutput, CopyFromParent, CWOverrideRedirect | CWBackPixel | CWEventMask, &a);
    XMapRaised(s->display, s->window);
    for (XEvent e;;) {
        XNextEvent(s->display, &e);
        if (e.type == MapNotify) break;
    }
    s->gc = DefaultGC(s->display, screen);
    s->completion = XShmGetEventBase(s->display) + ShmCompletion;
    s->image = XShmCreateImage(s->display, DefaultVisual(s->display, screen), 24, ZPixmap, NULL, &s->segment, WIDTH,
                               HEIGHT);
    s->segment.shmid = shmget(IPC_PRIVATE, (size_t)s->image->bytes_per_line * HEIGHT, IPC_CREAT | 0600);
    if (s->segment.shmid < 0) return -1;
    s->segment.shmaddr = s->image->data = shmat(s->segment.shmid, NULL, 0);
    s->segment.readOnly = False;
    if (!XShmAttach(s->display, &s->segment)) return -1;
    XSync(s->display, False);
    shmctl(s->segment.shmid, IPC_RMID, NULL);
    memset(s->image->data, 0x40, (size_t)s->image->bytes_per_line * HEIGHT);
    return 0;
}

// Waits for the server to finish reading the last picture, then hands it the next.
static void show(struct screen *s) {
    while (s->in_flight) {
        XEvent e;
        XNextEvent(s->display, &e);
        if (e.type == s->completion) s->in_flight = 0;
    }
    XShmPutImage(s->display, s->window, s->gc, s->image, 0, 0, 0, 0, WIDTH, HEIGHT, True);
    XFlush(s->display);
    s->in_flight = 1;
}

// Every byte of the decoded planes read once, every byte of the picture written once.
static unsigned touch(const AVFrame *frame, struct screen *s) {
    __m128i sum = _mm_setzero_si128();
    for (int p = 0; p < 3; p++) {
        int rows = p == 0 ? frame->height : (frame->height + 1) / 2;
        int bytes = p == 0 ? frame->width : (frame->width + 1) / 2;
        for (int y = 0; y < rows; y++) {
            const uint8_t *row = frame->data[p] + (ptrdiff_t)y * frame->linesize[p];
            int x = 0;
            for (; x + 16 <= bytes; x += 16) sum = _mm_add_epi8(sum, _mm_loadu_si128((const __m128i *)(row + x)));
            for (; x < bytes; x++) sum = _mm_add_epi8(sum, _mm_cvtsi32_si128(row[x]));
        }
    }
    // The picture is written as a converter that writes with streaming stores would. It is the
    // picture the server may still be reading: a second one would only add to the cache's load.
    __m128i value = _mm_set1_epi32(0x00404040 | (_mm_cvtsi128_si32(sum) & 0x0f));
    __m128i *out = (__m128i *)s->image->data;
    size_t count = (size_t)s->image->bytes_per_line * HEIGHT / 16;
    for (size_t i = 0; i < count; i++) _mm_stream_si128(out + i, value);
    _mm_sfence();
    return (unsigned)_mm_cvtsi128_si32(sum);
}

#ifdef WITH_CSCALE
#include "../../Sources/CScale/cscale.c"

// The viewer's scaler (Sources/Playback/FFmpeg/BilinearYUV*.swift) as one C loop: the same taps,
// rows and kernels, in one band, BT.709 limited range. Its cost, not its exact colours, is the point.
struct taps {
    int count;
    int32_t *index;
    int16_t *weight;
    cscale_group *groups;
};

static void make_taps(struct taps *t, int source, int count, int luma_width, int width) {
    t->count = count;
    t->index = calloc((size_t)count, sizeof *t->index);
    t->weight = calloc((size_t)count, sizeof *t->weight);
    t->groups = calloc((size_t)count / 8 + 1, sizeof *t->groups);
    for (int x = 0; x < count; x++) {
        // In 1/256 of a sample: luma's centres aligned; chroma's for the two pixels it covers.
        int pos = luma_width ? (2 * x + 1) * luma_width * 128 / width - 64 : (2 * x + 1) * source * 128 / count - 128;
        int c = pos < 0 ? 0 : pos > (source - 1) * 256 ? (source - 1) * 256 : pos, i = c >> 8, w = c & 255;
        if (i >= source - 1) i = source - 2, w = 256;
        t->index[x] = i;
        t->weight[x] = (int16_t)w;
    }
    for (int g = 0; g < count / 8; g++) {
        int x = g * 8, base = t->index[x];
        cscale_group *group = &t->groups[g];
        group->base = -1;
        if (t->index[x + 7] + 1 - base > 15 || base + 16 > source) continue;
        group->base = base;
        for (int k = 0; k < 8; k++) {
            int offset = t->index[x + k] - base, right = (t->weight[x + k] + 2) >> 2;
            group->shuffle[2 * k] = (uint8_t)offset;
            group->shuffle[2 * k + 1] = (uint8_t)(offset + 1);
            group->weights[2 * k] = (int8_t)(64 - right);
            group->weights[2 * k + 1] = (int8_t)right;
        }
    }
}

// The two source rows around output row y and the lower one's weight in 1/256; with chroma_rows,
// the chroma row two output rows share.
static void source_rows(int y, int height, int source, int chroma_rows, int *first, int *second, int *below) {
    int pos = chroma_rows ? (y + 1) * source * 128 / height - 128 : (2 * y + 1) * source * 128 / height - 128;
    int last = (chroma_rows ? chroma_rows : source) - 1, c = pos < 0 ? 0 : pos > last * 256 ? last * 256 : pos;
    *first = c >> 8;
    *second = *first + 1 > last ? last : *first + 1;
    *below = c & 255;
}

static void fit(const AVFrame *frame, struct screen *s) {
    static struct taps luma, chroma;
    static uint8_t u[WIDTH + 32], v[WIDTH + 32], y[WIDTH + 32];
    static int16_t red[WIDTH + 32], green[WIDTH + 32], blue[WIDTH + 32];
    static cscale_form form;
    if (luma.count == 0) {
        form = cscale_best_form();
        make_taps(&luma, frame->width, WIDTH, 0, 0);
        make_taps(&chroma, (frame->width + 1) / 2, (WIDTH + 1) / 2, frame->width, WIDTH);
    }
    const int chroma_rows = (frame->height + 1) / 2;
    // BT.709's chroma factors in 1/32 of a level, luma's 255/219 as 37 + 59/256.
    const __m128i centre = _mm_set1_epi16(128), vr = _mm_set1_epi16(57), ug = _mm_set1_epi16(7);
    const __m128i vg = _mm_set1_epi16(17), ub = _mm_set1_epi16(68), zero = _mm_setzero_si128();
    for (int pair = 0; pair < (HEIGHT + 1) / 2; pair++) {
        int c0, c1, cw;
        source_rows(2 * pair, HEIGHT, frame->height, chroma_rows, &c0, &c1, &cw);
        cscale_resample(frame->data[1] + c0 * frame->linesize[1], frame->data[1] + c1 * frame->linesize[1], cw,
                        chroma.index, chroma.weight, chroma.groups, form, u, (size_t)chroma.count);
        cscale_resample(frame->data[2] + c0 * frame->linesize[2], frame->data[2] + c1 * frame->linesize[2], cw,
                        chroma.index, chroma.weight, chroma.groups, form, v, (size_t)chroma.count);
        for (int i = 0; i < chroma.count; i += 8) {
            __m128i du = _mm_sub_epi16(_mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(u + i)), zero), centre);
            __m128i dv = _mm_sub_epi16(_mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(v + i)), zero), centre);
            __m128i r = _mm_mullo_epi16(dv, vr), b = _mm_mullo_epi16(du, ub);
            __m128i g = _mm_sub_epi16(zero, _mm_add_epi16(_mm_mullo_epi16(du, ug), _mm_mullo_epi16(dv, vg)));
            _mm_storeu_si128((__m128i *)(red + 2 * i), _mm_unpacklo_epi16(r, r));
            _mm_storeu_si128((__m128i *)(red + 2 * i + 8), _mm_unpackhi_epi16(r, r));
            _mm_storeu_si128((__m128i *)(green + 2 * i), _mm_unpacklo_epi16(g, g));
            _mm_storeu_si128((__m128i *)(green + 2 * i + 8), _mm_unpackhi_epi16(g, g));
            _mm_storeu_si128((__m128i *)(blue + 2 * i), _mm_unpacklo_epi16(b, b));
            _mm_storeu_si128((__m128i *)(blue + 2 * i + 8), _mm_unpackhi_epi16(b, b));
        }
        for (int row = 2 * pair; row < 2 * pair + 2 && row < HEIGHT; row++) {
            int r0, r1, w;
            source_rows(row, HEIGHT, frame->height, 0, &r0, &r1, &w);
            cscale_resample(frame->data[0] + r0 * frame->linesize[0], frame->data[0] + r1 * frame->linesize[0], w,
                            luma.index, luma.weight, luma.groups, form, y, (size_t)luma.count);
            cscale_convert(y, red, green, blue, 16, 37, 59, form,
                           (uint32_t *)(s->image->data + (ptrdiff_t)row * s->image->bytes_per_line), WIDTH);
        }
    }
}
#endif

// Each picture turned into the window's BGRX pixels, as a player that converts on the CPU must.
static void convert(const AVFrame *frame, struct screen *s, struct SwsContext **scaler) {
    *scaler = sws_getCachedContext(*scaler, frame->width, frame->height, frame->format, WIDTH, HEIGHT,
                                   AV_PIX_FMT_BGR0, SWS_FAST_BILINEAR, NULL, NULL, NULL);
    if (*scaler == NULL) return;
    uint8_t *out[4] = {(uint8_t *)s->image->data};
    int stride[4] = {s->image->bytes_per_line};
    sws_scale(*scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, out, stride);
}

// The sound's way out: 16-bit stereo through a pipe to a thread that writes it to PulseAudio,
// which paces it, as a player's output thread is paced.
struct speaker {
    SwrContext *resampler;
    int pipe[2], rate;
    pthread_t thread;
};

static void *speak(void *arg) {
    struct speaker *k = arg;
    pa_sample_spec spec = {.format = PA_SAMPLE_S16LE, .rate = (uint32_t)k->rate, .channels = 2};
    pa_simple *out = pa_simple_new(NULL, "decode-show", PA_STREAM_PLAYBACK, NULL, "floor", &spec, NULL, NULL, NULL);
    char buffer[8192];
    for (ssize_t n; (n = read(k->pipe[0], buffer, sizeof buffer)) > 0;)
        if (out != NULL) pa_simple_write(out, buffer, (size_t)n, NULL);
    if (out != NULL) {
        pa_simple_drain(out, NULL);
        pa_simple_free(out);
    }
    return NULL;
}

static int open_speaker(struct speaker *k, AVCodecContext *sound) {
    AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO;
    k->rate = sound->sample_rate;
    if (swr_alloc_set_opts2(&k->resampler, &stereo, AV_SAMPLE_FMT_S16, k->rate, &sound->ch_layout,
                            sound->sample_fmt, sound->sample_rate, 0, NULL) < 0 || swr_init(k->resampler) < 0)
        return -1;
    if (pipe(k->pipe) != 0) return -1;
    fcntl(k->pipe[1], F_SETPIPE_SZ, 1 << 20);
    return pthread_create(&k->thread, NULL, speak, k);
}

static void say(struct speaker *k, const AVFrame *samples) {
    int16_t out[2 * 4096];
    uint8_t *planes[1] = {(uint8_t *)out};
    int n = swr_convert(k->resampler, planes, 4096, (const uint8_t **)samples->extended_data, samples->nb_samples);
    for (ssize_t left = n > 0 ? n * 4 : 0, done = 0, w; left > 0; left -= w, done += w)
        if ((w = write(k->pipe[1], (char *)out + done, (size_t)left)) <= 0) return;
}

// Sleeps until `seconds` after `start` on the monotonic clock.
static void wait_until(const struct timespec *start, double seconds) {
    struct timespec t = *start;
    long long ns = t.tv_nsec + (long long)(seconds * 1e9);
    t.tv_sec += (time_t)(ns / 1000000000);
    t.tv_nsec = (long)(ns % 1000000000);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) != 0) {}
}

// The sound's decoder, or NULL when the file has no sound or it cannot be decoded.
static AVCodecContext *open_sound(AVFormatContext *format, int *stream) {
    const AVCodec *codec = NULL;
    *stream = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0);
    if (*stream < 0) return NULL;
    AVCodecContext *sound = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(sound, format->streams[*stream]->codecpar);
    if (avcodec_open2(sound, codec, NULL) < 0) {
        avcodec_free_context(&sound);
        return NULL;
    }
    return sound;
}

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[3], "decode") && strcmp(argv[3], "show") && strcmp(argv[3], "touch") &&
                      strcmp(argv[3], "play") && strcmp(argv[3], "hear") && strcmp(argv[3], "fit"))) {
        fprintf(stderr, "usage: decode-show FILE FRAMES decode|show|touch|play|hear|fit\n");
        return 2;
    }
    int frames = atoi(argv[2]);
    int hearing = strcmp(argv[3], "hear") == 0, playing = strcmp(argv[3], "play") == 0 || hearing;
    int fitting = strcmp(argv[3], "fit") == 0;
#ifndef WITH_CSCALE
    if (fitting) {
        fprintf(stderr, "decode-show: built without the viewer's kernels (-DWITH_CSCALE)\n");
        return 2;
    }
#endif
    int showing = strcmp(argv[3], "decode") != 0, touching = strcmp(argv[3], "touch") == 0 || (playing && !hearing);
    struct SwsContext *scaler = NULL;
    struct speaker speaker = {0};
    if (playing && frames <= 0) frames = 1 << 30;
    struct screen screen = {0};
    if (showing && open_screen(&screen) < 0) {
        fprintf(stderr, "decode-show: no display with MIT-SHM\n");
        return 1;
    }
    AVFormatContext *format = NULL;
    if (avformat_open_input(&format, argv[1], NULL, NULL) < 0 || avformat_find_stream_info(format, NULL) < 0) {
        fprintf(stderr, "decode-show: cannot open %s\n", argv[1]);
        return 1;
    }
    const AVCodec *codec = NULL;
    int stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (stream < 0) return 1;
    AVCodecContext *decoder = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(decoder, format->streams[stream]->codecpar);
    // FFmpeg's command line decodes with as many threads as it finds cores; so does this,
    // but in real time, where one thread keeps up and costs the least.
    AVDictionary *options = NULL;
    av_dict_set(&options, "threads", playing ? "1" : "auto", 0);
    if (avcodec_open2(decoder, codec, &options) < 0) return 1;
    av_dict_free(&options);
    int sound_stream = -1;
    AVCodecContext *sound = playing ? open_sound(format, &sound_stream) : NULL;
    if (hearing && sound && open_speaker(&speaker, sound) != 0) {
        fprintf(stderr, "decode-show: cannot play the sound\n");
        return 1;
    }
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc(), *samples = av_frame_alloc();
    int shown = 0, ended = 0;
    unsigned checksum = 0;
    double base = av_q2d(format->streams[stream]->time_base), first = -1;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (shown < frames) {
        if (!ended) {
            if (av_read_frame(format, packet) < 0) {
                avcodec_send_packet(decoder, NULL);
                ended = 1;
            } else {
                if (packet->stream_index == stream) avcodec_send_packet(decoder, packet);
                if (sound && packet->stream_index == sound_stream && avcodec_send_packet(sound, packet) == 0)
                    while (avcodec_receive_frame(sound, samples) == 0) {
                        checksum += samples->nb_samples;
                        if (speaker.resampler) say(&speaker, samples);
                    }
                av_packet_unref(packet);
            }
        }
        while (shown < frames && avcodec_receive_frame(decoder, frame) == 0) {
            if (playing && frame->best_effort_timestamp != AV_NOPTS_VALUE) {
                double at = (double)frame->best_effort_timestamp * base;
                if (first < 0) first = at;
                wait_until(&start, at - first);
            }
            if (touching) checksum += touch(frame, &screen);
            if (hearing) convert(frame, &screen, &scaler);
#ifdef WITH_CSCALE
            if (fitting) fit(frame, &screen);
#endif
            if (showing) show(&screen);
            shown++;
        }
        if (ended) break;
    }
    if (playing) frames = shown;
    if (showing) XSync(screen.display, False);
    if (speaker.resampler) {
        close(speaker.pipe[1]);
        pthread_join(speaker.thread, NULL);
    }
    printf("frames=%d checksum=%u\n", shown, checksum);
    return shown == frames ? 0 : 1;
}
