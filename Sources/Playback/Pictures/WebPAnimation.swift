import CFFmpeg
import CWebP
import Dispatch
import FoundationEssentials
import Glibc
import MediaCore

/// Decodes an animated WebP with libwebp's animation decoder, one full canvas per frame.
///
/// FFmpeg 5.1 cannot decode animated WebP; this gives the player the same kind of frames
/// (RGBA AVFrames with timestamps) so everything after the decoder stays the same.
final class WebPAnimation: PictureSource {
    private let data: UnsafeMutableRawPointer
    private let size: Int
    private let decoder: OpaquePointer
    let width: Int
    let height: Int
    let frameCount: Int
    /// Milliseconds at which the last frame handed out ends (libwebp's timeline).
    private var lastTimestamp: Int32 = 0
    /// Seconds at which the next frame starts on our timeline, after the delay clamp.
    private var clock: Double = 0

    /// Whether a file starting with `head` is an animated WebP: RIFF....WEBPVP8X with the
    /// animation flag (bit 1 of the first flags byte).
    static func isAnimated(_ head: some Collection<UInt8>) -> Bool {
        let h = Array(head.prefix(21))
        return h.count == 21 && h.starts(with: Array("RIFF".utf8)) && h[8..<16].elementsEqual(Array("WEBPVP8X".utf8))
            && h[20] & 0x02 != 0
    }

    /// The animation in `bytes`, named `name` in messages; refused over `maxPixels`.
    init(bytes: Data, name: String, maxPixels: Int) throws(AVError) {
        // WebPAnimDecoderNew allocates the whole canvas the header declares, so its size is
        // checked first: a file claiming a 12300474x237 canvas had libwebp ask for 11 GB.
        var features = WebPBitstreamFeatures()
        let header = bytes.withUnsafeBytes { b in
            WebPGetFeatures(b.baseAddress?.assumingMemoryBound(to: UInt8.self), b.count, &features)
        }
        guard header == VP8_STATUS_OK else { throw AVError(message: "\(name): not a valid animated WebP") }
        guard Int(features.width) * Int(features.height) <= maxPixels else {
            throw AVError(message: "\(name): picture is \(features.width)x\(features.height), over the limit of "
                          + "\(maxPixels) pixels (raise it with --max-pixels)")
        }
        size = bytes.count
        data = UnsafeMutableRawPointer.allocate(byteCount: max(1, size), alignment: 16)
        bytes.copyBytes(to: data.assumingMemoryBound(to: UInt8.self), count: size)
        var options = WebPAnimDecoderOptions()
        _ = WebPAnimDecoderOptionsInit(&options)
        options.color_mode = MODE_RGBA
        options.use_threads = 1
        var webp = WebPData(bytes: data.assumingMemoryBound(to: UInt8.self), size: size)
        guard let d = WebPAnimDecoderNew(&webp, &options) else {
            data.deallocate()
            throw AVError(message: "\(name): not a valid animated WebP")
        }
        var info = WebPAnimInfo()
        _ = WebPAnimDecoderGetInfo(d, &info)
        decoder = d
        width = Int(info.canvas_width)
        height = Int(info.canvas_height)
        frameCount = Int(info.frame_count)
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        data.deallocate()
    }

    /// The next frame as an RGBA AVFrame with its start time and duration in seconds, or
    /// nil at the end.
    func next() -> (frame: Frame, pts: Double, duration: Double)? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var pixels: UnsafeMutablePointer<UInt8>?
        var end: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &pixels, &end) != 0, let pixels else { return nil }
        let start = lastTimestamp
        lastTimestamp = end
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = AV_PIX_FMT_RGBA.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        guard av_frame_get_buffer(f, 0) >= 0, let dst = f.pointee.data.0 else { return nil }
        let stride = Int(f.pointee.linesize.0)
        for y in 0..<height {
            (dst + y * stride).update(from: pixels + y * width * 4, count: width * 4)
        }
        // Browsers' rule for tiny delays, as for GIFs.
        var duration = Double(end - start) / 1000
        if duration <= 0.01 { duration = 0.1 }
        let pts = clock
        clock += duration
        return (frame, pts, duration)
    }

    /// An animation that loops, at its canvas size.
    var info: MediaInfo {
        MediaInfo.picture(kind: .animated, width: width, height: height, format: "webp", codec: "webp (libwebp)")
    }

    /// Back to the first frame (a loop).
    func rewind() {
        WebPAnimDecoderReset(decoder)
        lastTimestamp = 0
        clock = 0
    }
}
