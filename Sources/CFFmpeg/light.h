#ifndef MEDIAVIEW_CFFMPEG_LIGHT_H
#define MEDIAVIEW_CFFMPEG_LIGHT_H

// Packets and the stand-in of a container that a sandboxed worker reads, made with
// libavutil alone. libavcodec links about a hundred libraries (its encoders, GPU
// back-ends, librsvg) and libavformat more: loading them took 25-60 ms of a launch and
// their pages counted in the viewer's memory, for nothing the viewer decodes itself.
// Each function does what FFmpeg's own of the same name does to the public fields, so a
// packet made here can still go to libavcodec when an item is decoded in this process.

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/mem.h>
#include <string.h>

// av_packet_unref's state: no data, no timestamps.
static inline void cff_packet_defaults(AVPacket *p) {
    memset(p, 0, sizeof *p);
    p->pts = p->dts = AV_NOPTS_VALUE;
    p->pos = -1;
}

// av_packet_alloc without libavcodec.
static inline AVPacket *cff_packet_alloc(void) {
    AVPacket *p = (AVPacket *)av_mallocz(sizeof(AVPacket));
    if (p != NULL) cff_packet_defaults(p);
    return p;
}

// av_packet_unref without libavcodec: side data, the opaque reference and the data go.
static inline void cff_packet_unref(AVPacket *p) {
    for (int i = 0; i < p->side_data_elems; i++) av_freep(&p->side_data[i].data);
    av_freep(&p->side_data);
    av_buffer_unref(&p->opaque_ref);
    av_buffer_unref(&p->buf);
    cff_packet_defaults(p);
}

// av_packet_free without libavcodec.
static inline void cff_packet_free(AVPacket **p) {
    if (p == NULL || *p == NULL) return;
    cff_packet_unref(*p);
    av_freep(p);
}

// av_new_packet without libavcodec: `size` bytes and the zeroed padding decoders read past
// the end; 0 or an AVERROR.
static inline int cff_new_packet(AVPacket *p, int size) {
    if (size < 0 || size >= INT_MAX - AV_INPUT_BUFFER_PADDING_SIZE) return AVERROR(EINVAL);
    AVBufferRef *buf = NULL;
    int status = av_buffer_realloc(&buf, size + AV_INPUT_BUFFER_PADDING_SIZE);
    if (status < 0) return status;
    memset(buf->data + size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    cff_packet_defaults(p);
    p->buf = buf;
    p->data = buf->data;
    p->size = size;
    return 0;
}

// av_packet_new_side_data without libavcodec: zeroed room for `size` bytes of `type`,
// replacing any of that type; NULL without memory.
static inline uint8_t *cff_packet_new_side_data(AVPacket *p, enum AVPacketSideDataType type, size_t size) {
    if (size > SIZE_MAX - AV_INPUT_BUFFER_PADDING_SIZE) return NULL;
    uint8_t *data = (uint8_t *)av_mallocz(size + AV_INPUT_BUFFER_PADDING_SIZE);
    if (data == NULL) return NULL;
    for (int i = 0; i < p->side_data_elems; i++) {
        if (p->side_data[i].type != type) continue;
        av_free(p->side_data[i].data);
        p->side_data[i].data = data;
        p->side_data[i].size = size;
        return data;
    }
    if ((unsigned)p->side_data_elems + 1 > AV_PKT_DATA_NB) { av_free(data); return NULL; }
    AVPacketSideData *grown = (AVPacketSideData *)av_realloc(p->side_data, (p->side_data_elems + 1) * sizeof *grown);
    if (grown == NULL) { av_free(data); return NULL; }
    p->side_data = grown;
    p->side_data[p->side_data_elems] = (AVPacketSideData){.data = data, .size = size, .type = type};
    p->side_data_elems++;
    return data;
}

// av_stream_get_side_data without libavformat: the stream's public side data list, which
// a stand-in carries too.
static inline uint8_t *cff_stream_side_data(const AVStream *st, enum AVPacketSideDataType type) {
    for (int i = 0; i < st->nb_side_data; i++)
        if (st->side_data[i].type == type) return st->side_data[i].data;
    return NULL;
}

// A container's stand-in: the public fields of a format context and nothing behind them.
// No function of libavformat may be given one (they reach into what libavformat adds
// behind the public fields); cff_standin_free frees it.
static inline AVFormatContext *cff_standin_alloc(void) {
    return (AVFormatContext *)av_mallocz(sizeof(AVFormatContext));
}

// avcodec_parameters_alloc's defaults, without libavcodec.
static inline AVCodecParameters *cff_standin_parameters(void) {
    AVCodecParameters *par = (AVCodecParameters *)av_mallocz(sizeof(AVCodecParameters));
    if (par == NULL) return NULL;
    par->codec_type = AVMEDIA_TYPE_UNKNOWN;
    par->codec_id = AV_CODEC_ID_NONE;
    par->format = -1;
    par->ch_layout.order = AV_CHANNEL_ORDER_UNSPEC;
    par->field_order = AV_FIELD_UNKNOWN;
    par->color_range = AVCOL_RANGE_UNSPECIFIED;
    par->color_primaries = AVCOL_PRI_UNSPECIFIED;
    par->color_trc = AVCOL_TRC_UNSPECIFIED;
    par->color_space = AVCOL_SPC_UNSPECIFIED;
    par->chroma_location = AVCHROMA_LOC_UNSPECIFIED;
    par->sample_aspect_ratio = (AVRational){0, 1};
    par->profile = FF_PROFILE_UNKNOWN;
    par->level = FF_LEVEL_UNKNOWN;
    return par;
}

// A new stream of a stand-in, with its codec parameters and index; NULL without memory.
static inline AVStream *cff_standin_new_stream(AVFormatContext *c) {
    if (c->nb_streams >= INT_MAX / sizeof(AVStream *) - 1) return NULL;
    AVStream **grown = (AVStream **)av_realloc_array(c->streams, c->nb_streams + 1, sizeof *grown);
    if (grown == NULL) return NULL;
    c->streams = grown;
    AVStream *st = (AVStream *)av_mallocz(sizeof(AVStream));
    if (st == NULL) return NULL;
    st->codecpar = cff_standin_parameters();
    if (st->codecpar == NULL) { av_free(st); return NULL; }
    st->index = (int)c->nb_streams;
    st->start_time = st->duration = AV_NOPTS_VALUE;
    st->time_base = (AVRational){0, 1};
    st->sample_aspect_ratio = (AVRational){0, 1};
    c->streams[c->nb_streams++] = st;
    return st;
}

// Room for `size` bytes of side data of `type` on a stand-in's stream; NULL without memory.
static inline uint8_t *cff_standin_new_side_data(AVStream *st, enum AVPacketSideDataType type, size_t size) {
    uint8_t *data = (uint8_t *)av_mallocz(size);
    if (data == NULL) return NULL;
    AVPacketSideData *grown = (AVPacketSideData *)av_realloc_array(st->side_data, st->nb_side_data + 1, sizeof *grown);
    if (grown == NULL) { av_free(data); return NULL; }
    st->side_data = grown;
    st->side_data[st->nb_side_data++] = (AVPacketSideData){.data = data, .size = size, .type = type};
    return data;
}

// Frees a stand-in made by cff_standin_alloc and everything its streams hold.
static inline void cff_standin_free(AVFormatContext *c) {
    if (c == NULL) return;
    for (unsigned i = 0; i < c->nb_streams; i++) {
        AVStream *st = c->streams[i];
        if (st->codecpar != NULL) {
            av_freep(&st->codecpar->extradata);
            av_channel_layout_uninit(&st->codecpar->ch_layout);
            av_freep(&st->codecpar);
        }
        for (int k = 0; k < st->nb_side_data; k++) av_freep(&st->side_data[k].data);
        av_freep(&st->side_data);
        av_dict_free(&st->metadata);
        av_free(st);
    }
    av_freep(&c->streams);
    av_dict_free(&c->metadata);
    av_free(c);
}

#endif
