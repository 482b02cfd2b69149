#ifndef MEDIAVIEW_CASS_SHIM_H
#define MEDIAVIEW_CASS_SHIM_H

// libass draws subtitles (SRT, WebVTT and ASS, after FFmpeg turned them into ASS events)
// as coverage masks with a colour each, which the viewer blends over the video.
#include <ass/ass.h>

// libass's log callback takes a va_list, which Swift cannot declare: this one drops every
// line, since the viewer reports a broken subtitle file in one line of its own.
static void cass_silent_log(int level, const char *fmt, va_list args, void *data) {
    (void)level; (void)fmt; (void)args; (void)data;
}

// Installs the silent callback above (a C function pointer Swift cannot build for a va_list type).
static inline void cass_silence(ASS_Library *library) {
    ass_set_message_cb(library, cass_silent_log, 0);
}

#endif
