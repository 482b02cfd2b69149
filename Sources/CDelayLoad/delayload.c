// Calls into the codec and picture libraries go through a stub per function. The stub
// jumps through its slot; until the library is loaded the slot points at a resolver that
// keeps the caller's argument registers, loads the library with dlopen, binds every slot
// of that library with dlsym and then jumps on to the real function. After that a call
// costs one indirect jump. The stubs are hidden, so a loaded library's calls among its
// own functions never come back through them.
#define _GNU_SOURCE
#include "delayload.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <jxl/version.h>
#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libavutil/version.h>
#include <libswresample/version.h>
#include <libswscale/version.h>

#define DL_TEXT(x) #x
#define DL_STRING(x) DL_TEXT(x)

// FFmpeg's and libjxl's file names follow their headers, so a newer Debian's versions
// are loaded by the file names they were compiled against; the others have been stable.
static const char *const library_names[DELAYLOAD_LIBRARY_COUNT] = {
    [DELAYLOAD_AVFORMAT] = "libavformat.so." DL_STRING(LIBAVFORMAT_VERSION_MAJOR),
    [DELAYLOAD_AVCODEC] = "libavcodec.so." DL_STRING(LIBAVCODEC_VERSION_MAJOR),
    [DELAYLOAD_AVUTIL] = "libavutil.so." DL_STRING(LIBAVUTIL_VERSION_MAJOR),
    [DELAYLOAD_SWSCALE] = "libswscale.so." DL_STRING(LIBSWSCALE_VERSION_MAJOR),
    [DELAYLOAD_SWRESAMPLE] = "libswresample.so." DL_STRING(LIBSWRESAMPLE_VERSION_MAJOR),
    [DELAYLOAD_WEBPDEMUX] = "libwebpdemux.so.2",
    [DELAYLOAD_WEBP] = "libwebp.so.7",
    [DELAYLOAD_JPEG] = "libjpeg.so.62",
    [DELAYLOAD_LCMS2] = "liblcms2.so.2",
    [DELAYLOAD_AVIF] = "libavif.so.15",
    [DELAYLOAD_HEIF] = "libheif.so.1",
    [DELAYLOAD_JXL] = "libjxl.so." DL_STRING(JPEGXL_MAJOR_VERSION) "." DL_STRING(JPEGXL_MINOR_VERSION),
    [DELAYLOAD_RSVG] = "librsvg-2.so.2",
    [DELAYLOAD_GOBJECT] = "libgobject-2.0.so.0",
    [DELAYLOAD_GLIB] = "libglib-2.0.so.0",
    [DELAYLOAD_CAIRO] = "libcairo.so.2",
    [DELAYLOAD_ASS] = "libass.so.9",
    [DELAYLOAD_RUBBERBAND] = "librubberband.so.2",
    [DELAYLOAD_PULSE] = "libpulse.so.0",
    [DELAYLOAD_SECCOMP] = "libseccomp.so.2",
    [DELAYLOAD_TIFF] = "libtiff.so.6",
    [DELAYLOAD_PNG] = "libpng16.so.16",
    [DELAYLOAD_FREETYPE] = "libfreetype.so.6",
    [DELAYLOAD_FONTCONFIG] = "libfontconfig.so.1",
    [DELAYLOAD_ISAL] = "libisal.so.2",
};

// The symbol names in symbols.h use these short library names.
enum {
    dl_avformat = DELAYLOAD_AVFORMAT, dl_avcodec = DELAYLOAD_AVCODEC, dl_avutil = DELAYLOAD_AVUTIL,
    dl_swscale = DELAYLOAD_SWSCALE, dl_swresample = DELAYLOAD_SWRESAMPLE,
    dl_webpdemux = DELAYLOAD_WEBPDEMUX, dl_webp = DELAYLOAD_WEBP, dl_jpeg = DELAYLOAD_JPEG,
    dl_lcms2 = DELAYLOAD_LCMS2, dl_avif = DELAYLOAD_AVIF, dl_heif = DELAYLOAD_HEIF, dl_jxl = DELAYLOAD_JXL,
    dl_rsvg = DELAYLOAD_RSVG, dl_gobject = DELAYLOAD_GOBJECT, dl_glib = DELAYLOAD_GLIB,
    dl_cairo = DELAYLOAD_CAIRO, dl_ass = DELAYLOAD_ASS, dl_rubberband = DELAYLOAD_RUBBERBAND,
    dl_pulse = DELAYLOAD_PULSE, dl_seccomp = DELAYLOAD_SECCOMP, dl_tiff = DELAYLOAD_TIFF,
    dl_png = DELAYLOAD_PNG, dl_freetype = DELAYLOAD_FREETYPE, dl_fontconfig = DELAYLOAD_FONTCONFIG,
    dl_isal = DELAYLOAD_ISAL,
};

static pthread_mutex_t binding = PTHREAD_MUTEX_INITIALIZER;
static void *handles[DELAYLOAD_LIBRARY_COUNT];
static char failure[512];
// AV_LOG_QUIET: users get one line of ours per failure, not FFmpeg's.
static int ffmpeg_log_level = -8;
void av_log_set_level(int level);

// Opens `library` (the caller holds `binding`); NULL and the reason in `failure` if it cannot.
static void *open_library(int library) {
    void *handle = dlopen(library_names[library], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "cannot load %s: %s", library_names[library], why ? why : "unknown error");
    }
    return handle;
}

// Marks `library` loaded, its functions bound; FFmpeg's log level goes to libavutil first.
static void loaded(int library, void *handle) {
    __atomic_store_n(&handles[library], handle, __ATOMIC_RELEASE);
    // Its functions are bound now, so this goes straight to the library.
    if (library == DELAYLOAD_AVUTIL) av_log_set_level(__atomic_load_n(&ffmpeg_log_level, __ATOMIC_RELAXED));
}

// The stubs are x86-64 assembly. Elsewhere Package.swift links the libraries as before, and
// loading one only finds it already there.
#if defined(__x86_64__)

// One function's slot: where its stub jumps (first, the stubs read it at offset 0), its
// name for dlsym and its library.
struct dl_slot {
    void *target;
    const char *name;
    int library;
};

// The stubs: `name` jumps through its slot; `dl_unbound_name`, the slot's first target,
// hands the slot to the resolver in r11, a register no call passes arguments in.
#define DL_SYMBOL(lib, name)                                                              \
    __asm__(".text\n"                                                                     \
            ".globl " #name "\n.hidden " #name "\n.type " #name ",@function\n"            \
            #name ":\n"                                                                   \
            "    jmp *dl_slot_" #name "(%rip)\n"                                          \
            ".size " #name ", .-" #name "\n"                                              \
            "dl_unbound_" #name ":\n"                                                     \
            "    leaq dl_slot_" #name "(%rip), %r11\n"                                    \
            "    jmp dl_bind_and_call\n");                                                \
    extern char dl_unbound_##name[];                                                      \
    __attribute__((visibility("hidden"), used)) struct dl_slot dl_slot_##name = {         \
        dl_unbound_##name, #name, dl_##lib};
#include "symbols.h"
#undef DL_SYMBOL

static struct dl_slot *const all_slots[] = {
#define DL_SYMBOL(lib, name) &dl_slot_##name,
#include "symbols.h"
#undef DL_SYMBOL
};

// Loads `library` and fills its slots; the caller holds `binding`. NULL or the reason.
static const char *bind_library(int library) {
    if (handles[library] != NULL) return NULL;
    void *handle = open_library(library);
    if (handle == NULL) return failure;
    for (size_t i = 0; i < sizeof all_slots / sizeof all_slots[0]; i++) {
        struct dl_slot *slot = all_slots[i];
        if (slot->library != library) continue;
        void *address = dlsym(handle, slot->name);
        if (address == NULL) {
            snprintf(failure, sizeof failure, "%s has no function %s", library_names[library], slot->name);
            return failure;
        }
        __atomic_store_n(&slot->target, address, __ATOMIC_RELEASE);
    }
    loaded(library, handle);
    return NULL;
}

// Called by the stubs' common path with the slot of the function being called; returns
// where to jump. A library that cannot be loaded ends the program as the dynamic linker
// would have at start, with the same kind of sentence.
__attribute__((visibility("hidden"), used)) void *dl_bind(struct dl_slot *slot) {
    pthread_mutex_lock(&binding);
    const char *why = bind_library(slot->library);
    pthread_mutex_unlock(&binding);
    if (why != NULL) {
        char line[600];
        int length = snprintf(line, sizeof line, "mediaview: %s\n", why);
        if (length > 0) (void)!write(2, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
        _exit(127);
    }
    return __atomic_load_n(&slot->target, __ATOMIC_ACQUIRE);
}

// Keeps every register a call may pass arguments in (six integer registers, rax with the
// count of vector arguments of a variadic call, xmm0-7), binds, restores, and jumps on.
// On entry the stack is 8 off 16-byte alignment (the caller's return address); eight
// pushes and 136 bytes bring it back to alignment for the call.
__asm__(".text\n"
        ".type dl_bind_and_call,@function\n"
        "dl_bind_and_call:\n"
        "    pushq %rbp\n"
        "    movq %rsp, %rbp\n"
        "    pushq %rdi\n    pushq %rsi\n    pushq %rdx\n    pushq %rcx\n"
        "    pushq %r8\n    pushq %r9\n    pushq %rax\n"
        "    subq $136, %rsp\n"
        "    movdqu %xmm0, 0(%rsp)\n    movdqu %xmm1, 16(%rsp)\n"
        "    movdqu %xmm2, 32(%rsp)\n    movdqu %xmm3, 48(%rsp)\n"
        "    movdqu %xmm4, 64(%rsp)\n    movdqu %xmm5, 80(%rsp)\n"
        "    movdqu %xmm6, 96(%rsp)\n    movdqu %xmm7, 112(%rsp)\n"
        "    movq %r11, %rdi\n"
        "    call dl_bind\n"
        "    movq %rax, %r11\n"
        "    movdqu 0(%rsp), %xmm0\n    movdqu 16(%rsp), %xmm1\n"
        "    movdqu 32(%rsp), %xmm2\n    movdqu 48(%rsp), %xmm3\n"
        "    movdqu 64(%rsp), %xmm4\n    movdqu 80(%rsp), %xmm5\n"
        "    movdqu 96(%rsp), %xmm6\n    movdqu 112(%rsp), %xmm7\n"
        "    addq $136, %rsp\n"
        "    popq %rax\n    popq %r9\n    popq %r8\n    popq %rcx\n"
        "    popq %rdx\n    popq %rsi\n    popq %rdi\n"
        "    popq %rbp\n"
        "    jmp *%r11\n"
        ".size dl_bind_and_call, .-dl_bind_and_call\n");

#else
static const char *bind_library(int library) {
    if (handles[library] != NULL) return NULL;
    void *handle = open_library(library);
    if (handle == NULL) return failure;
    loaded(library, handle);
    return NULL;
}
#endif

const char *delayload_load(delayload_library library) {
    if ((int)library < 0 || library >= DELAYLOAD_LIBRARY_COUNT) return "no such library";
    pthread_mutex_lock(&binding);
    const char *why = bind_library(library);
    pthread_mutex_unlock(&binding);
    return why;
}

void delayload_set_ffmpeg_log_level(int level) {
    pthread_mutex_lock(&binding);
    __atomic_store_n(&ffmpeg_log_level, level, __ATOMIC_RELAXED);
    if (handles[DELAYLOAD_AVUTIL] != NULL) av_log_set_level(level);
    pthread_mutex_unlock(&binding);
}
