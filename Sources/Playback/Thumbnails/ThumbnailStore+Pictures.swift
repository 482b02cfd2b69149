import CFFmpeg
import Glibc
import ThumbnailCache

/// The desktop's thumbnails as pictures: decoded when read, encoded when saved, through
/// FFmpeg's PNG codec, which the player links already.
extension ThumbnailStore {
    /// The cached thumbnail of `uri` as a picture, if there is one made from this very file
    /// (see `cachedPNG`), fitted to `size`.
    public func cached(_ uri: String, mtime: Int, size: Size) -> StillDecoder.RGBA? {
        cachedThumbnail(uri, mtime: mtime, size: size)?.picture
    }

    /// As `cached`, with the video's length in seconds when the thumbnail records it.
    public func cachedThumbnail(_ uri: String, mtime: Int, size: Size) -> (picture: StillDecoder.RGBA, length: Double?)? {
        guard let bytes = cachedPNG(uri, mtime: mtime, size: size),
              let picture = Self.decodePNG(bytes, size: size.rawValue) else { return nil }
        return (picture, Self.length(ofPNG: bytes))
    }

    /// A PNG file's bytes decoded straight by FFmpeg's PNG decoder, fitted to `size` (a
    /// thumbnail from another program may be larger than the standard says): no demuxer and
    /// no probing, since a warm gallery's first screen is a few tens of these.
    static func decodePNG(_ bytes: [UInt8], size: Int) -> StillDecoder.RGBA? {
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_PNG), let ctx = avcodec_alloc_context3(codec) else { return nil }
        defer { var c: UnsafeMutablePointer<AVCodecContext>? = ctx; avcodec_free_context(&c) }
        ctx.pointee.thread_count = 1
        let packet = Packet(), frame = Frame()
        guard avcodec_open2(ctx, codec, nil) >= 0, bytes.count < Int32.max,
              cff_new_packet(packet.raw, Int32(bytes.count)) >= 0, let data = packet.raw.pointee.data else { return nil }
        bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: $0.count) }
        guard avcodec_send_packet(ctx, packet.raw) >= 0, avcodec_receive_frame(ctx, frame.raw) >= 0 else { return nil }
        let f = frame.raw.pointee
        guard f.width > 0, f.height > 0, Int(f.width) * Int(f.height) <= 4096 * 4096 else { return nil }
        return try? ThumbnailMaker.fit(frame, size: size)
    }

    /// Saves `picture` as the thumbnail of `uri` at `size`, with a video's `length` when given.
    public func save(_ picture: StillDecoder.RGBA, uri: String, mtime: Int, size: Size,
                     length: Double? = nil) throws(SaveError) {
        guard let png = PNGEncoder.encodeRGBA(picture.pixels, width: picture.width, height: picture.height) else {
            throw SaveError(description: "cannot encode the thumbnail of \(uri)", code: EINVAL)
        }
        try save(png: png, uri: uri, mtime: mtime, size: size, length: length)
    }
}
