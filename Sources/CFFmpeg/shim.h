#ifndef MEDIAVIEW_CFFMPEG_SHIM_H
#define MEDIAVIEW_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/base64.h>
#include <libavutil/aes.h>
#include <libavutil/md5.h>
#include <libavutil/sha.h>
#include <libavutil/channel_layout.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// AVERROR(e) is a function-like macro.
static inline int cff_averror(int e) { return AVERROR(e); }
// AVERROR_EOF is built with FFERRTAG, an expression macro Swift does not import.
static const int cff_averror_eof = AVERROR_EOF;
// AVERROR_EXIT likewise (returned when our interrupt callback aborts I/O).
static const int cff_averror_exit = AVERROR_EXIT;
// AVERROR_INVALIDDATA likewise.
static const int cff_averror_invaliddata = AVERROR_INVALIDDATA;
// AV_NOPTS_VALUE is an INT64_C cast macro.
static const int64_t cff_nopts = AV_NOPTS_VALUE;
// AV_TIME_BASE_Q is a compound literal.
static inline AVRational cff_time_base_q(void) { return AV_TIME_BASE_Q; }
// AVSEEK_FLAG_BACKWARD is imported, but the seek helpers read better with one call.
static inline int cff_seek_backward(void) { return AVSEEK_FLAG_BACKWARD; }
// Linux's nice is per thread, by thread id, and gettid() has no prototype without
// _GNU_SOURCE: the decoding threads that must yield (track previews) lower their own.
static inline int cff_nice_this_thread(int nice) { return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice); }

#endif
