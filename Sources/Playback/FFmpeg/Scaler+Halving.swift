import CFFmpeg
import CScale

/// Video shown at half its size or less: 4K in a 1080p window, 720p in the thumbnail.
///
/// swscale's fast bilinear has no fast path for shrinking: 4K into 1920x1080 cost 57 M
/// instructions a frame (3.4 G a second at 60 frames, as much as decoding), and 720p into
/// the 640x360 thumbnail 6.5 M, a third of what decoding the frame took. Halving the
/// YUV 4:2:0 planes with a 2x2 average first, as many times as the picture stays at least
/// twice the target, leaves swscale a picture at most twice the target's size. Like
/// swscale's own shrinking filter, the average counts every source pixel, so fine detail
/// turns grey rather than into stripes.
extension Scaler {
    /// `frame`, or a reused copy of it halved until it is less than twice `width` x `height`.
    func halved(_ frame: UnsafeMutablePointer<AVFrame>, toward width: Int, _ height: Int) -> UnsafeMutablePointer<AVFrame> {
        let format = frame.pointee.format
        guard format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue else { return frame }
        var source = frame
        var level = 0
        while level < 3, Int(source.pointee.width) >= 2 * width, Int(source.pointee.height) >= 2 * height {
            guard let half = halfFrame(level, like: source) else { return source }
            for plane in 0..<3 {
                let chroma = plane > 0
                let sw = chroma ? (Int(source.pointee.width) + 1) / 2 : Int(source.pointee.width)
                let sh = chroma ? (Int(source.pointee.height) + 1) / 2 : Int(source.pointee.height)
                let dw = chroma ? (Int(half.pointee.width) + 1) / 2 : Int(half.pointee.width)
                let dh = chroma ? (Int(half.pointee.height) + 1) / 2 : Int(half.pointee.height)
                guard let s = planeOf(source, plane), let d = planeOf(half, plane) else { return source }
                Scaler.halve(s.base, stride: s.stride, width: sw, height: sh, into: d.base, stride: d.stride, width: dw, height: dh)
            }
            source = half
            level += 1
        }
        return source
    }

    /// The reused frame for halving level `level`, sized half of `source`, its colour
    /// description copied.
    private func halfFrame(_ level: Int, like source: UnsafeMutablePointer<AVFrame>) -> UnsafeMutablePointer<AVFrame>? {
        let w = source.pointee.width / 2, h = source.pointee.height / 2
        if level < halves.count, halves[level].pointee.width == w, halves[level].pointee.height == h,
           halves[level].pointee.format == source.pointee.format {
            _ = av_frame_copy_props(halves[level], source)
            return halves[level]
        }
        guard let f = av_frame_alloc() else { return nil }
        f.pointee.format = source.pointee.format
        f.pointee.width = w
        f.pointee.height = h
        guard av_frame_get_buffer(f, 0) >= 0 else {
            var p: UnsafeMutablePointer<AVFrame>? = f
            av_frame_free(&p)
            return nil
        }
        _ = av_frame_copy_props(f, source)
        if level < halves.count {
            var old: UnsafeMutablePointer<AVFrame>? = halves[level]
            av_frame_free(&old)
            halves[level] = f
        } else {
            halves.append(f)
        }
        return f
    }

    private func planeOf(_ f: UnsafeMutablePointer<AVFrame>, _ i: Int) -> (base: UnsafeMutablePointer<UInt8>, stride: Int)? {
        let data = [f.pointee.data.0, f.pointee.data.1, f.pointee.data.2]
        let size = [f.pointee.linesize.0, f.pointee.linesize.1, f.pointee.linesize.2]
        guard let base = data[i], size[i] > 0 else { return nil }
        return (base, Int(size[i]))
    }

    /// One plane at half size, each pixel the rounded mean of its 2x2 block (an odd last
    /// row or column is averaged with itself), 32 pixels at a time with AVX2 (`cscale_halve`).
    static func halve(_ src: UnsafePointer<UInt8>, stride: Int, width sw: Int, height sh: Int,
                      into dst: UnsafeMutablePointer<UInt8>, stride dstride: Int, width dw: Int, height dh: Int,
                      form: cscale_form = BilinearYUV.Taps.best) {
        cscale_halve(src, stride, sw, sh, dst, dstride, dw, dh, form)
    }
}
