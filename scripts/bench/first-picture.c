/*
 * scripts/bench/first-picture.c: the floor of the bench's (h), launch to the first picture
 * of a video on screen.
 *
 * The least a player that decodes with FFmpeg and draws with Xlib can do: FFmpeg's
 * libraries linked as usual, the file opened and its first picture decoded on the main
 * thread while a second thread connects to the X server and maps a window, then one
 * conversion into the window's size and one XPutImage. No sandbox, no sound, no options,
 * no interface; it then waits to be killed.
 *
 *   first-picture FILE WIDTH HEIGHT   a window of WIDTH x HEIGHT at 0,0 shows FILE's first picture
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int width, height;
static Display *display;
static Window window;

// Connects and maps the window, which costs as much as a decode's start, beside it.
static void *open_window(void *unused) {
    (void)unused;
    display = XOpenDisplay(NULL);
    if (display == NULL) return NULL;
    XSetWindowAttributes a = {.override_redirect = True, .background_pixel = 0, .event_mask = StructureNotifyMask};
    window = XCreateWindow(display, DefaultRootWindow(display), 0, 0, width, height, 0, CopyFromParent, InputOutput,
                           CopyFromParent, CWOverrideRedirect | CWBackPixel | CWEventMask, &a);
    XMapRaised(display, window);
    for (XEvent e;;) {
        XNextEvent(display, &e);
        if (e.type == MapNotify) break;
    }
    return NULL;
}

// The first picture of the file's video, or NULL.
static AVFrame *first_picture(const char *path) {
    AVFormatContext *format = NULL;
    if (avformat_open_input(&format, path, NULL, NULL) < 0) return NULL;
    // MP4 and Matroska state in their headers what a decoder needs; the probe, which decodes
    // the first frames to learn more, is what mpv and the viewer both skip for them.
    const char *name = format->iformat->name;
    int described = strncmp(name, "mov,", 4) == 0 || strncmp(name, "matroska", 8) == 0;
    if (!described && avformat_find_stream_info(format, NULL) < 0) return NULL;
    const AVCodec *codec = NULL;
    int stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (stream < 0) return NULL;
    AVCodecContext *decoder = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(decoder, format->streams[stream]->codecpar);
    if (avcodec_open2(decoder, codec, NULL) < 0) return NULL;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    while (av_read_frame(format, packet) >= 0) {
        int ours = packet->stream_index == stream;
        if (ours) avcodec_send_packet(decoder, packet);
        av_packet_unref(packet);
        if (ours && avcodec_receive_frame(decoder, frame) == 0) return frame;
    }
    avcodec_send_packet(decoder, NULL);
    return avcodec_receive_frame(decoder, frame) == 0 ? frame : NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: first-picture FILE WIDTH HEIGHT\n");
        return 2;
    }
    width = atoi(argv[2]);
    height = atoi(argv[3]);
    pthread_t opener;
    pthread_create(&opener, NULL, open_window, NULL);
    AVFrame *frame = first_picture(argv[1]);
    pthread_join(opener, NULL);
    if (frame == NULL || display == NULL) {
        fprintf(stderr, "first-picture: no picture or no display\n");
        return 1;
    }
    struct SwsContext *scaler = sws_getContext(frame->width, frame->height, frame->format, width, height, AV_PIX_FMT_BGR0,
                                               SWS_FAST_BILINEAR, NULL, NULL, NULL);
    char *pixels = malloc((size_t)width * height * 4);
    uint8_t *planes[1] = {(uint8_t *)pixels};
    int strides[1] = {width * 4};
    sws_scale(scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    XImage *image = XCreateImage(display, DefaultVisual(display, DefaultScreen(display)), 24, ZPixmap, 0, pixels,
                                 width, height, 32, width * 4);
    XPutImage(display, window, DefaultGC(display, DefaultScreen(display)), image, 0, 0, 0, 0, width, height);
    XSync(display, False);
    pause();
    return 0;
}
