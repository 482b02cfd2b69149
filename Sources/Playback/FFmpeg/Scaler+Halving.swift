import CFFmpeg

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
    /// row or column is averaged with itself). Eight source bytes of each row at a time, as
    /// four 16-bit lanes of a UInt64 (the byte loop took 17 instructions a pixel; this, 5).
    static func halve(_ src: UnsafePointer<UInt8>, stride: Int, width sw: Int, height sh: Int,
                      into dst: UnsafeMutablePointer<UInt8>, stride dstride: Int, width dw: Int, height dh: Int) {
        let pairs = min(dw, sw / 2)
        let chunks = pairs / 4
        let low: UInt64 = 0x00FF_00FF_00FF_00FF
        for y in 0..<dh {
            let r0 = src + min(2 * y, sh - 1) * stride
            let r1 = src + min(2 * y + 1, sh - 1) * stride
            let o = dst + y * dstride
            for k in 0..<chunks {
                let a = UnsafeRawPointer(r0 + 8 * k).loadUnaligned(as: UInt64.self)
                let b = UnsafeRawPointer(r1 + 8 * k).loadUnaligned(as: UInt64.self)
                // Each 16-bit lane: the four pixels of one 2x2 block, plus 2 to round.
                let sum = (a & low) &+ ((a >> 8) & low) &+ (b & low) &+ ((b >> 8) & low) &+ 0x0002_0002_0002_0002
                var p = (sum >> 2) & low
                p = (p | (p >> 8)) & 0x0000_FFFF_0000_FFFF
                p = (p | (p >> 16)) & 0xFFFF_FFFF
                UnsafeMutableRawPointer(o + 4 * k).storeBytes(of: UInt32(truncatingIfNeeded: p), as: UInt32.self)
            }
            for x in (chunks * 4)..<pairs {
                let sum = UInt16(r0[2 * x]) &+ UInt16(r0[2 * x + 1]) &+ UInt16(r1[2 * x]) &+ UInt16(r1[2 * x + 1]) &+ 2
                o[x] = UInt8(truncatingIfNeeded: sum >> 2)
            }
            for x in pairs..<dw {
                let c = min(2 * x, sw - 1)
                o[x] = UInt8(truncatingIfNeeded: (UInt16(r0[c]) &+ UInt16(r1[c]) &+ 1) >> 1)
            }
        }
    }
}
