#ifndef MEDIAVIEW_CX11_SHIM_H
#define MEDIAVIEW_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
// XKBlib: detectable auto-repeat, so a held key is told from a key pressed again.
#include <X11/XKBlib.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xrandr.h>
// Xcursor: pointer shapes by their names in the desktop's cursor theme (the grab hand), as
// toolkits load them.
#include <X11/Xcursor/Xcursor.h>
// XFixes: names each pointer shape on the server, where screen recorders and tests read it.
#include <X11/extensions/Xfixes.h>
// The core cursor font's shapes, for a desktop without a cursor theme.
#include <X11/cursorfont.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

// Xlib's accessors are function-like macros, which Swift cannot import.
static inline int cx11_default_screen(Display *d) { return DefaultScreen(d); }
static inline Window cx11_root_window(Display *d, int s) { return RootWindow(d, s); }
static inline int cx11_connection_number(Display *d) { return ConnectionNumber(d); }
static inline int cx11_display_width(Display *d, int s) { return DisplayWidth(d, s); }
static inline int cx11_display_height(Display *d, int s) { return DisplayHeight(d, s); }
static inline int cx11_default_depth(Display *d, int s) { return DefaultDepth(d, s); }
static inline Visual *cx11_default_visual(Display *d, int s) { return DefaultVisual(d, s); }
static inline unsigned long cx11_black_pixel(Display *d, int s) { return BlackPixel(d, s); }
static inline GC cx11_default_gc(Display *d, int s) { return DefaultGC(d, s); }
// AllPlanes is a macro cast, not a constant Swift can see.
static const unsigned long cx11_all_planes = AllPlanes;
// IPC_PRIVATE is a macro cast ((key_t)0).
static const key_t cx11_ipc_private = IPC_PRIVATE;
// XDestroyImage is a macro that calls through the image's function table.
static inline int cx11_destroy_image(XImage *img) { return XDestroyImage(img); }
// ppoll is declared only under _GNU_SOURCE, which Swift's Glibc module is built without;
// the event loop needs its nanosecond timeout (poll counts whole milliseconds).
extern int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);
static inline int cx11_poll_nanoseconds(struct pollfd *fds, nfds_t count, long long nanoseconds) {
    if (nanoseconds < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec t = { (time_t)(nanoseconds / 1000000000LL), (long)(nanoseconds % 1000000000LL) };
    return ppoll(fds, count, &t, NULL);
}
// XGetPixel is a macro that calls through the image's function table.
static inline unsigned long cx11_get_pixel(XImage *img, int x, int y) { return XGetPixel(img, x, y); }
// The XEvent union's members are reachable from Swift, but its type tag is clearer through one accessor.
static inline int cx11_event_type(const XEvent *e) { return e->type; }

// XCreateIC is variadic, which Swift cannot call: one fixed form for a plain input context.
static inline XIC cx11_create_ic(XIM im, Window w) {
    return XCreateIC(im, XNInputStyle, XIMPreeditNothing | XIMStatusNothing,
                     XNClientWindow, w, XNFocusWindow, w, (char *)NULL);
}
// The Motif hints struct lives in no public header; its layout is fixed by convention.
typedef struct {
    unsigned long flags, functions, decorations;
    long input_mode;
    unsigned long status;
} cx11_motif_hints;

#endif
