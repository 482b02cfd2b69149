import CFFmpeg
import Glibc
import MediaCore
import Subtitles

/// Turns the packets of one text subtitle stream (SubRip, ASS, mov_text, WebVTT) into ASS
/// events: FFmpeg's text subtitle decoders all write ASS, which is what libass draws.
final class SubtitleDecoder {
    private let decoder: Decoder

    /// Bitmap subtitles (PGS, DVB, DVD) are pictures, not text: they are not offered.
    static func isText(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        let par = stream.pointee.codecpar.pointee
        guard par.codec_type == AVMEDIA_TYPE_SUBTITLE, let d = avcodec_descriptor_get(par.codec_id) else { return false }
        return d.pointee.props & AV_CODEC_PROP_TEXT_SUB != 0
    }

    init(stream: UnsafeMutablePointer<AVStream>) throws(AVError) {
        decoder = try Decoder(stream: stream, threads: 1, maxPixels: 1 << 20)
    }

    /// The ASS script header (play resolution, styles) the decoder made for this stream.
    var header: String {
        guard let h = decoder.ctx.pointee.subtitle_header, decoder.ctx.pointee.subtitle_header_size > 0 else { return "" }
        let bytes = UnsafeBufferPointer(start: h, count: Int(decoder.ctx.pointee.subtitle_header_size))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The events in one packet; none for a packet that does not decode.
    func decode(_ packet: Packet) -> [SubtitleCue] {
        var sub = AVSubtitle()
        var got: Int32 = 0
        let r = avcodec_decode_subtitle2(decoder.ctx, &sub, &got, packet.raw)
        guard r >= 0, got != 0 else { return [] }
        defer { avsubtitle_free(&sub) }
        let p = packet.raw.pointee
        guard let base = decoder.seconds(p.pts != cff_nopts ? p.pts : p.dts), base.isFinite else { return [] }
        let start = base + Double(sub.start_display_time) / 1000
        var duration = p.duration > 0 ? decoder.seconds(p.duration) ?? 0 : 0
        if duration <= 0, sub.end_display_time > sub.start_display_time, sub.end_display_time != UInt32.max {
            duration = Double(sub.end_display_time - sub.start_display_time) / 1000
        }
        // An event that never says when it ends stays a while, as players show such lines.
        if !(duration > 0) || !duration.isFinite { duration = 5 }
        var cues: [SubtitleCue] = []
        for i in 0..<Int(sub.num_rects) {
            guard let rect = sub.rects[i], rect.pointee.type == SUBTITLE_ASS, let ass = rect.pointee.ass else { continue }
            let line = String(cString: ass)
            // "ReadOrder,Layer,Style,...": the order number is the renderer's to give.
            guard let comma = line.firstIndex(of: ",") else { continue }
            cues.append(SubtitleCue(start: start, duration: duration,
                                    fields: SubtitleBounds.bounded(String(line[line.index(after: comma)...]))))
        }
        return cues
    }
}
