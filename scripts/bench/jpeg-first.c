/*
 * scripts/bench/jpeg-first.c: the floor of the bench's (b), a large JPEG's first picture in a
 * 1280x720 window, then exit.
 *
 * What any program that shows a JPEG with libjpeg-turbo through this X server must spend, and
 * nothing else: its own start (libc, libjpeg, Xlib), the file read into memory, the decode at
 * the largest of libjpeg's DCT scales that still covers the window's fitted size (the cheapest
 * decode that stays sharp; 1/4 for 6000x4000 into 1280x720), straight into the pixel format
 * the server takes, and one MIT-SHM put. It does not scale the decoded rows to the fitted size
 * (it shows their top-left corner), so it is below any program that does. The window is asked
 * for before the decode, so the server maps it while the picture decodes.
 *
 *   jpeg-first FILE WIDTH HEIGHT
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <jpeglib.h>

static unsigned char *read_file(const char *path, unsigned long *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = n > 0 ? malloc((size_t)n) : NULL;
    if (bytes == NULL || fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = (unsigned long)n;
    return bytes;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: jpeg-first FILE WIDTH HEIGHT\n");
        return 2;
    }
    int width = atoi(argv[2]), height = atoi(argv[3]);
    Display *display = XOpenDisplay(NULL);
    if (display == NULL || !XShmQueryExtension(display)) {
        fprintf(stderr, "jpeg-first: no display with MIT-SHM\n");
        return 1;
    }
    int screen = DefaultScreen(display);
    XSetWindowAttributes a = {.background_pixel = 0, .event_mask = StructureNotifyMask};
    Window window = XCreateWindow(display, DefaultRootWindow(display), 0, 0, (unsigned)width, (unsigned)height, 0,
                                  CopyFromParent, InputOutput, CopyFromParent, CWBackPixel | CWEventMask, &a);
    XMapRaised(display, window);
    XFlush(display);

    unsigned long size = 0;
    unsigned char *bytes = read_file(argv[1], &size);
    if (bytes == NULL) {
        fprintf(stderr, "jpeg-first: cannot read %s\n", argv[1]);
        return 1;
    }
    struct jpeg_decompress_struct jpeg;
    struct jpeg_error_mgr errors;
    jpeg.err = jpeg_std_error(&errors);
    jpeg_create_decompress(&jpeg);
    jpeg_mem_src(&jpeg, bytes, size);
    jpeg_read_header(&jpeg, TRUE);
    // The smallest decode that still covers the fitted size, as a viewer that stays sharp picks.
    double fit = (double)width / jpeg.image_width;
    if ((double)height / jpeg.image_height < fit) fit = (double)height / jpeg.image_height;
    unsigned denom = 1;
    while (denom < 8 && fit * 2 * denom <= 1) denom *= 2;
    jpeg.scale_num = 1;
    jpeg.scale_denom = denom;
    jpeg.out_color_space = JCS_EXT_BGRX;
    jpeg_start_decompress(&jpeg);

    XShmSegmentInfo segment = {0};
    XImage *image = XShmCreateImage(display, DefaultVisual(display, screen), 24, ZPixmap, NULL, &segment,
                                    (unsigned)width, (unsigned)height);
    segment.shmid = shmget(IPC_PRIVATE, (size_t)image->bytes_per_line * height, IPC_CREAT | 0600);
    if (segment.shmid < 0) return 1;
    segment.shmaddr = image->data = shmat(segment.shmid, NULL, 0);
    if (!XShmAttach(display, &segment)) return 1;
    shmctl(segment.shmid, IPC_RMID, NULL);

    // Rows go straight into the shared picture; those below or right of the window are decoded
    // (libjpeg has no cheaper way to pass them) into one spare row.
    unsigned char *spare = malloc((size_t)jpeg.output_width * 4);
    while (jpeg.output_scanline < jpeg.output_height) {
        unsigned y = jpeg.output_scanline;
        JSAMPROW row = spare;
        int inside = y < (unsigned)height && jpeg.output_width <= (unsigned)width;
        if (inside) row = (JSAMPROW)(image->data + (size_t)y * image->bytes_per_line);
        jpeg_read_scanlines(&jpeg, &row, 1);
        if (!inside && y < (unsigned)height)
            memcpy(image->data + (size_t)y * image->bytes_per_line, spare, (size_t)width * 4);
    }
    jpeg_finish_decompress(&jpeg);
    jpeg_destroy_decompress(&jpeg);

    for (XEvent e;;) {
        XNextEvent(display, &e);
        if (e.type == MapNotify) break;
    }
    XShmPutImage(display, window, DefaultGC(display, screen), image, 0, 0, 0, 0, (unsigned)width, (unsigned)height,
                 False);
    XSync(display, False);
    printf("decoded %ux%u at 1/%u\n", jpeg.output_width, jpeg.output_height, denom);
    return 0;
}
