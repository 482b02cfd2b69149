import CFFmpeg

/// A decoded picture as a PNG file's bytes, through FFmpeg's PNG encoder (already linked
/// for decoding): screenshots at the media's own resolution, upright.
public enum PNGEncoder {
    /// The PNG of `frame` at its display size (aspect ratio and rotation applied, plus
    /// `rotation` degrees clockwise), or nil when the encoder fails.
    public static func encode(_ frame: VideoFrame, rotation: Int = 0) -> [UInt8]? {
        let turn = ((frame.rotation + rotation) % 360 + 360) % 360
        var (w, h) = frame.displaySize
        // displaySize already turned it by the frame's own rotation; the user's turn may swap again.
        if (turn - frame.rotation) % 180 != 0 { (w, h) = (h, w) }
        guard w > 0, h > 0, w <= 32768, h <= 32768 else { return nil }
        var bgrx = [UInt32](repeating: 0, count: w * h)
        bgrx.withUnsafeMutableBytes { raw in
            let target = ImageTarget(base: raw.baseAddress!, width: w, height: h, stride: w * 4)
            Scaler().render(frame, into: target, rect: PixelRect(x: 0, y: 0, width: w, height: h),
                            quality: .best, rotation: rotation)
        }
        return encodeRGB(bgrx, width: w, height: h)
    }

    /// PNG of BGRX pixels (the window's layout), written as 8-bit RGB.
    public static func encodeRGB(_ bgrx: [UInt32], width w: Int, height h: Int) -> [UInt8]? {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG), let ctx = avcodec_alloc_context3(codec) else { return nil }
        defer { var c: UnsafeMutablePointer<AVCodecContext>? = ctx; avcodec_free_context(&c) }
        ctx.pointee.width = Int32(w)
        ctx.pointee.height = Int32(h)
        ctx.pointee.pix_fmt = AV_PIX_FMT_RGB24
        ctx.pointee.time_base = AVRational(num: 1, den: 1)
        guard avcodec_open2(ctx, codec, nil) >= 0, let picture = av_frame_alloc() else { return nil }
        defer { var f: UnsafeMutablePointer<AVFrame>? = picture; av_frame_free(&f) }
        picture.pointee.width = Int32(w)
        picture.pointee.height = Int32(h)
        picture.pointee.format = AV_PIX_FMT_RGB24.rawValue
        guard av_frame_get_buffer(picture, 0) >= 0, let plane = picture.pointee.data.0 else { return nil }
        let stride = Int(picture.pointee.linesize.0)
        for y in 0..<h {
            let row = plane + y * stride
            for x in 0..<w {
                let p = bgrx[y * w + x]
                row[x * 3] = UInt8((p >> 16) & 0xFF)
                row[x * 3 + 1] = UInt8((p >> 8) & 0xFF)
                row[x * 3 + 2] = UInt8(p & 0xFF)
            }
        }
        guard avcodec_send_frame(ctx, picture) >= 0, avcodec_send_frame(ctx, nil) >= 0,
              let packet = av_packet_alloc() else { return nil }
        defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
        guard avcodec_receive_packet(ctx, packet) >= 0, let data = packet.pointee.data else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }
}
