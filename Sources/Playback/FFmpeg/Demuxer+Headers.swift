import CFFmpeg

/// Whether a container's headers already say what the player needs, so the open can skip
/// FFmpeg's probe.
///
/// `avformat_find_stream_info` reads packets and decodes the first frames of every stream,
/// to fill in what a header may leave out: the pixel format, the profile, a rate seen from
/// the timestamps. MP4 and Matroska write each stream's codec, size, frame rate, sample rate
/// and channels in their headers, and the decoders learn the rest from the first packet.
/// For a 1080p H.264 film the probe cost 10-20 ms before the first picture could start
/// decoding, about a sixth of the launch. mpv skips the probe for these two formats too.
extension Demuxer {
    /// Learns what `ctx`, just opened, holds: from its headers when they suffice, else by
    /// FFmpeg's probe; returns the probe's status (0 from the headers).
    static func findStreams(_ ctx: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
        guard headersSuffice(ctx) else { return avformat_find_stream_info(ctx, nil) }
        completeTimings(ctx)
        return 0
    }

    /// True when `ctx`, just opened, is MP4 or Matroska and every stream's header carries
    /// its basics; any stream that does not sends the file through the full probe.
    static func headersSuffice(_ ctx: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard let name = ctx.pointee.iformat?.pointee.name.map({ String(cString: $0) }),
              name.hasPrefix("mov,") || name.hasPrefix("matroska") else { return false }
        let count = Int(ctx.pointee.nb_streams)
        // A fragmented MP4 (a live recording) learns its length only from the probe.
        guard count > 0, ctx.pointee.duration > 0, ctx.pointee.duration != cff_nopts else { return false }
        return (0..<count).allSatisfy { i in
            guard let st = ctx.pointee.streams[i], let par = st.pointee.codecpar else { return false }
            return headerSuffices(par.pointee, stream: st.pointee)
        }
    }

    /// Sound codecs whose bit rate is read from their frames' headers.
    private static let frameHeaderRates = Set([AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3, AV_CODEC_ID_DTS, AV_CODEC_ID_MP1,
                                               AV_CODEC_ID_MP2, AV_CODEC_ID_MP3].map(\.rawValue))

    /// Whether one stream's header says what the player reads before its first frame.
    private static func headerSuffices(_ par: AVCodecParameters, stream st: AVStream) -> Bool {
        switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO:
            // Cover art stored as a picture stream states no size until it is decoded.
            let rate = av_q2d(st.avg_frame_rate) > 0 || av_q2d(st.r_frame_rate) > 0
            return par.codec_id != AV_CODEC_ID_NONE && par.width > 0 && par.height > 0 && rate
                && st.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        case AVMEDIA_TYPE_AUDIO:
            guard par.codec_id != AV_CODEC_ID_NONE, par.sample_rate > 0, par.ch_layout.nb_channels > 0 else { return false }
            // Dolby's, DTS and MPEG audio state their bit rate in each frame, not in the
            // header; the info panel shows it.
            if frameHeaderRates.contains(par.codec_id.rawValue) && par.bit_rate <= 0 { return false }
            // HE-AAC may say only its core rate, half of what it plays, and mono for the
            // stereo its parametric part makes; both only at 24 kHz and under. The sound is
            // played at the rate the header says, so only the decoder may tell those.
            return par.codec_id != AV_CODEC_ID_AAC || par.sample_rate > 24000
        case AVMEDIA_TYPE_SUBTITLE:
            return par.codec_id != AV_CODEC_ID_NONE
        default:
            // Fonts attached to a Matroska file and data tracks are never decoded.
            return true
        }
    }

    /// Fills in what the probe would have worked out from the headers alone: the earliest
    /// start of any stream, and the bit rate of the whole file, which the info panel shows.
    static func completeTimings(_ ctx: UnsafeMutablePointer<AVFormatContext>) {
        if ctx.pointee.start_time == cff_nopts {
            var earliest: Int64?
            for i in 0..<Int(ctx.pointee.nb_streams) {
                guard let st = ctx.pointee.streams[i], st.pointee.start_time != cff_nopts else { continue }
                let seconds = Double(st.pointee.start_time) * av_q2d(st.pointee.time_base)
                guard seconds.isFinite, abs(seconds) < 1e9 else { continue }
                let us = Int64((seconds * Double(AV_TIME_BASE)).rounded())
                earliest = min(earliest ?? us, us)
            }
            if let earliest { ctx.pointee.start_time = earliest }
        }
        let duration = ctx.pointee.duration
        if ctx.pointee.bit_rate <= 0, duration > 0, let pb = ctx.pointee.pb {
            let size = avio_size(pb)
            let rate = Double(size) * 8 * Double(AV_TIME_BASE) / Double(duration)
            if size > 0, rate.isFinite, rate < Double(Int64.max) { ctx.pointee.bit_rate = Int64(rate) }
        }
    }
}
