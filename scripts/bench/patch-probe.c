/*
 * scripts/bench/patch-probe.c: an observer outside the player, for the bench's (g) and (h).
 *
 * Reads one small square of the root window with XGetImage as fast as the X server answers
 * (about every 0.1-0.5 ms on Xvfb) and prints the wall-clock time (CLOCK_REALTIME, seconds,
 * the clock FFmpeg's PulseAudio input stamps its samples with) whenever the square turns
 * white, i.e. every pixel of it bright. A player's own "frame shown" event says when it
 * asked for the picture; this says when the X server had it on screen.
 *
 *   patch-probe X Y SECONDS first [PAUSE_MS]   prints the first time the square is white,
 *                                   then exits (exit 1 if it never was within SECONDS)
 *   patch-probe X Y SECONDS all [PAUSE_MS]     prints every dark-to-white change for SECONDS
 *
 * PAUSE_MS (default 0) is a pause between reads. Read back to back, the probe and the X
 * server answering it keep one of the machine's two cores busy: a launch (h) then has one
 * core for the player, its workers and the X server's own drawing. With a 1 ms pause they
 * take a few per cent of a core, and a change is seen at most about 1.1 ms late.
 *
 * The square is 4x4 pixels at X,Y, so a single stray pixel (a cursor, a dither) is not
 * taken for the patch. It prints "ready" on stderr once connected, so a script can start
 * the player only after that.
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

static double wallclock(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double monotonic(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Every pixel of the square has all three channels above 200 of 255. */
static int white(XImage *img) {
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            unsigned long p = XGetPixel(img, x, y);
            if (((p >> 16) & 255) < 200 || ((p >> 8) & 255) < 200 || (p & 255) < 200) return 0;
        }
    return 1;
}

int main(int argc, char **argv) {
    if ((argc != 5 && argc != 6) || (strcmp(argv[4], "first") && strcmp(argv[4], "all"))) {
        fprintf(stderr, "usage: patch-probe X Y SECONDS first|all [PAUSE_MS]\n");
        return 2;
    }
    int x = atoi(argv[1]), y = atoi(argv[2]);
    double seconds = atof(argv[3]);
    int first = strcmp(argv[4], "first") == 0;
    double pause_ms = argc == 6 ? atof(argv[5]) : 0;
    struct timespec pause = {(time_t)(pause_ms / 1000), (long)(fmod(pause_ms, 1000) * 1e6)};
    Display *d = XOpenDisplay(NULL);
    if (!d) {
        fprintf(stderr, "patch-probe: cannot open the display\n");
        return 2;
    }
    Window root = DefaultRootWindow(d);
    fprintf(stderr, "ready\n");
    double end = monotonic() + seconds;
    int was = 0, seen = 0;
    while (monotonic() < end) {
        /* The server read the square somewhere between asking and the answer. */
        double asked = wallclock();
        XImage *img = XGetImage(d, root, x, y, 4, 4, AllPlanes, ZPixmap);
        if (!img) continue;
        int now = white(img);
        double t = (asked + wallclock()) / 2;
        XDestroyImage(img);
        if (now && !was) {
            printf("%.6f\n", t);
            fflush(stdout);
            seen = 1;
            if (first) break;
        }
        was = now;
        if (pause_ms > 0) nanosleep(&pause, NULL);
    }
    XCloseDisplay(d);
    return first && !seen ? 1 : 0;
}
