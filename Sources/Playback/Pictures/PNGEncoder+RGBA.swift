import CFFmpeg
import ThumbnailCache

extension PNGEncoder {
    /// PNG of straight-alpha RGBA pixels (`width * height * 4` bytes), with `text` as
    /// `tEXt` chunks; nil when the encoder fails or a text is not Latin-1.
    public static func encodeRGBA(_ rgba: [UInt8], width w: Int, height h: Int,
                                  text: [(keyword: String, text: String)] = []) -> [UInt8]? {
        guard w > 0, h > 0, rgba.count == w * h * 4,
              let codec = avcodec_find_encoder(AV_CODEC_ID_PNG), let ctx = avcodec_alloc_context3(codec) else { return nil }
        defer { var c: UnsafeMutablePointer<AVCodecContext>? = ctx; avcodec_free_context(&c) }
        ctx.pointee.width = Int32(w)
        ctx.pointee.height = Int32(h)
        ctx.pointee.pix_fmt = AV_PIX_FMT_RGBA
        ctx.pointee.time_base = AVRational(num: 1, den: 1)
        // Thumbnails are written once and read often: a fast level of compression is enough.
        ctx.pointee.compression_level = 3
        guard avcodec_open2(ctx, codec, nil) >= 0, let picture = av_frame_alloc() else { return nil }
        defer { var f: UnsafeMutablePointer<AVFrame>? = picture; av_frame_free(&f) }
        picture.pointee.width = Int32(w)
        picture.pointee.height = Int32(h)
        picture.pointee.format = AV_PIX_FMT_RGBA.rawValue
        guard av_frame_get_buffer(picture, 0) >= 0, let plane = picture.pointee.data.0 else { return nil }
        let stride = Int(picture.pointee.linesize.0)
        rgba.withUnsafeBytes { src in
            for y in 0..<h { (plane + y * stride).update(from: src.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * w * 4, count: w * 4) }
        }
        guard avcodec_send_frame(ctx, picture) >= 0, avcodec_send_frame(ctx, nil) >= 0,
              let packet = av_packet_alloc() else { return nil }
        defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
        guard avcodec_receive_packet(ctx, packet) >= 0, let data = packet.pointee.data else { return nil }
        let png = Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
        return text.isEmpty ? png : PNGText.inserting(text, into: png)
    }
}
