import CFFmpeg

/// Encodes an RGBA picture as PNG with libavcodec's encoder: what the clipboard offers as
/// `image/png` when the user copies the picture.
public enum PNGEncoder {
    /// The PNG file's bytes for `picture`.
    public static func encode(_ picture: StillDecoder.RGBA) throws(AVError) -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG), let ctx = avcodec_alloc_context3(codec) else {
            throw AVError(message: "this FFmpeg has no PNG encoder")
        }
        defer { var c: UnsafeMutablePointer<AVCodecContext>? = ctx; avcodec_free_context(&c) }
        ctx.pointee.width = Int32(picture.width)
        ctx.pointee.height = Int32(picture.height)
        ctx.pointee.pix_fmt = AV_PIX_FMT_RGBA
        ctx.pointee.time_base = AVRational(num: 1, den: 1)
        guard avcodec_open2(ctx, codec, nil) >= 0 else { throw AVError(message: "the PNG encoder did not start") }
        let frame = Frame()
        let f = frame.raw
        f.pointee.width = ctx.pointee.width
        f.pointee.height = ctx.pointee.height
        f.pointee.format = AV_PIX_FMT_RGBA.rawValue
        guard av_frame_get_buffer(f, 0) >= 0, let dst = f.pointee.data.0 else {
            throw AVError(message: "out of memory for a \(picture.width)x\(picture.height) picture")
        }
        let row = picture.width * 4, stride = Int(f.pointee.linesize.0)
        picture.pixels.withUnsafeBytes { src in
            for y in 0..<picture.height {
                (dst + y * stride).update(from: src.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * row, count: row)
            }
        }
        let packet = Packet()
        guard avcodec_send_frame(ctx, f) >= 0, avcodec_receive_packet(ctx, packet.raw) >= 0, let data = packet.raw.pointee.data else {
            throw AVError(message: "the PNG encoder failed")
        }
        defer { av_packet_unref(packet.raw) }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.raw.pointee.size)))
    }
}
