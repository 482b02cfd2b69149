import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc

/// Converts and scales frames straight into the caller's BGRX memory with libswscale.
///
/// One scaler per output surface: a `SwsContext` is not safe to share between threads, and
/// it is kept (with its slice threads) while the geometry stays the same.
public final class Scaler {
    private var sws: OpaquePointer?
    /// Reused for rotated frames: scaled here first, then turned while copied out.
    private var rotateBuffer: UnsafeMutableRawPointer?
    private var rotateBufferSize = 0

    /// Speed against quality: moving video wants fast bilinear, a still a better filter,
    /// and a tiny picture blown up many times its own pixels as blocks.
    public enum Quality: Sendable { case fast, best, blocks }

    public init() {}

    /// Half, quarter and eighth size copies of the last video frame (see Scaler+Halving).
    var halves: [UnsafeMutablePointer<AVFrame>] = []
    /// Moving video's own scaler, kept while the geometry stays the same.
    private var bilinear: BilinearYUV?
    /// Still pictures' scaler, kept while the geometry stays the same.
    private var packedScaler: PackedScaler?

    deinit {
        // A scaler that never used swscale (stills and video have scalers of their own)
        // must not load it just to free nothing on the way out.
        if let sws { sws_freeContext(sws) }
        rotateBuffer?.deallocate()
        for t in targets { var p: UnsafeMutablePointer<AVFrame>? = t.frame; av_frame_free(&p) }
        for h in halves { var p: UnsafeMutablePointer<AVFrame>? = h; av_frame_free(&p) }
    }

    /// Scales `frame` to fill `rect` of `target`, turning it by `rotation` degrees
    /// clockwise on top of the frame's own rotation.
    public func render(_ frame: VideoFrame, into target: ImageTarget, rect: PixelRect,
                       quality: Quality, rotation extra: Int) {
        let r = rect.clipped(to: target)
        guard r.width > 0, r.height > 0 else { return }
        let turn = ((frame.rotation + extra) % 360 + 360) % 360
        if r != rect {
            // Zoomed or aspect-filled: only part of the picture is visible.
            renderCropped(frame, into: target, rect: rect, visible: r, quality: quality, turn: turn)
            return
        }
        if turn == 0 && quality == .blocks {
            magnify(frame, into: target.base + r.y * target.stride + r.x * 4, stride: target.stride,
                    width: r.width, height: r.height)
            return
        }
        // Blocks only for the whole picture upright; turned or cropped it scales as video does.
        let quality = quality == .blocks ? .fast : quality
        if turn == 0 {
            scale(frame, into: target.base + r.y * target.stride + r.x * 4, stride: target.stride,
                  width: r.width, height: r.height, quality: quality)
            return
        }
        // Scale to the unrotated size, then rotate into place.
        let sw = turn == 180 ? r.width : r.height
        let sh = turn == 180 ? r.height : r.width
        let needed = sw * sh * 4
        if rotateBufferSize < needed {
            rotateBuffer?.deallocate()
            rotateBuffer = UnsafeMutableRawPointer.allocate(byteCount: needed, alignment: 64)
            rotateBufferSize = needed
        }
        let tmp = rotateBuffer!
        scale(frame, into: tmp, stride: sw * 4, width: sw, height: sh, quality: quality)
        Scaler.rotate(source: tmp.assumingMemoryBound(to: UInt32.self), width: sw, height: sh,
                      degrees: turn, into: target, at: r)
    }

    /// Scales only the part of the source that lands inside `visible`, so a zoomed picture
    /// costs what the window shows, not what the zoom would cover.
    private func renderCropped(_ frame: VideoFrame, into target: ImageTarget, rect: PixelRect, visible: PixelRect,
                               quality: Quality, turn: Int) {
        // The visible part in the rotated picture's coordinates, 0...1.
        var fx0 = Double(visible.x - rect.x) / Double(rect.width)
        var fx1 = Double(visible.x + visible.width - rect.x) / Double(rect.width)
        var fy0 = Double(visible.y - rect.y) / Double(rect.height)
        var fy1 = Double(visible.y + visible.height - rect.y) / Double(rect.height)
        // Back to the stored (unrotated) picture's coordinates.
        switch turn {
        case 90: (fx0, fx1, fy0, fy1) = (fy0, fy1, 1 - fx1, 1 - fx0)
        case 180: (fx0, fx1, fy0, fy1) = (1 - fx1, 1 - fx0, 1 - fy1, 1 - fy0)
        case 270: (fx0, fx1, fy0, fy1) = (1 - fy1, 1 - fy0, fx0, fx1)
        default: break
        }
        let w = Double(frame.width), h = Double(frame.height)
        let left = Int(max(0, (fx0 * w).rounded(.down))), right = Int(max(0, w - (fx1 * w).rounded(.up)))
        let top = Int(max(0, (fy0 * h).rounded(.down))), bottom = Int(max(0, h - (fy1 * h).rounded(.up)))
        // A worker's still is cut where it lies, without libavutil (which would copy a plane
        // it holds no reference to).
        if frame.frame.isPlain {
            guard let part = frame.frame.packedPart(left: left, top: top, width: Int(w) - left - right,
                                                    height: Int(h) - top - bottom) else { return }
            let cropped = VideoFrame(frame: part, pts: frame.pts, duration: frame.duration,
                                     serial: frame.serial, rotation: frame.rotation)
            render(cropped, into: target, rect: visible, quality: quality, rotation: turn - frame.rotation)
            return
        }
        guard let clone = av_frame_clone(frame.frame.raw) else { return }
        var c: UnsafeMutablePointer<AVFrame>? = clone
        defer { av_frame_free(&c) }
        clone.pointee.crop_left = left
        clone.pointee.crop_right = right
        clone.pointee.crop_top = top
        clone.pointee.crop_bottom = bottom
        guard av_frame_apply_cropping(clone, Int32(AV_FRAME_CROP_UNALIGNED)) >= 0 else { return }
        let cropped = VideoFrame(frame: Frame(adopting: clone), pts: frame.pts, duration: frame.duration,
                                 serial: frame.serial, rotation: frame.rotation)
        c = nil
        render(cropped, into: target, rect: visible, quality: quality, rotation: turn - frame.rotation)
    }

    /// What the cached context was made for; a new one only when this changes.
    private struct Geometry: Equatable {
        var srcW: Int32, srcH: Int32, srcFormat: Int32, dstW: Int32, dstH: Int32, flags: Int32
        var colour: SourceColour
    }
    private var geometry: Geometry?
    /// Destination frames wrapping caller memory (the two SHM images of a surface), reused
    /// from frame to frame: `sws_scale_frame` wants a reference-counted destination.
    private var targets: [(key: [Int], frame: UnsafeMutablePointer<AVFrame>)] = []
    /// swscale's own slice threads; with 0 it would start one per core.
    public static let threads = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

    /// Slice threads for an output of `pixels`: a thumbnail-sized picture scales in a
    /// fraction of a millisecond, less than handing slices to other threads costs.
    static func threads(forOutput pixels: Int) -> Int {
        pixels <= 640 * 360 ? 1 : threads
    }

    private func context(for f: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, quality: Quality) -> OpaquePointer? {
        // Moving video: fast bilinear, no accurate rounding (a frame is gone in 33 ms).
        // Stills: bicubic with accurate rounding and full chroma.
        let flags = quality == .best ? (SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT) : SWS_FAST_BILINEAR
        let g = Geometry(srcW: f.pointee.width, srcH: f.pointee.height, srcFormat: f.pointee.format,
                         dstW: Int32(width), dstH: Int32(height), flags: flags, colour: SourceColour(of: f))
        if g == geometry, let sws { return sws }
        sws_freeContext(sws)
        sws = nil
        geometry = nil
        guard let c = sws_alloc_context() else { return nil }
        let ok = av_opt_set_int(UnsafeMutableRawPointer(c), "srcw", Int64(g.srcW), 0) >= 0
            && av_opt_set_int(UnsafeMutableRawPointer(c), "srch", Int64(g.srcH), 0) >= 0
            && av_opt_set_int(UnsafeMutableRawPointer(c), "src_format", Int64(g.srcFormat), 0) >= 0
            && av_opt_set_int(UnsafeMutableRawPointer(c), "dstw", Int64(g.dstW), 0) >= 0
            && av_opt_set_int(UnsafeMutableRawPointer(c), "dsth", Int64(g.dstH), 0) >= 0
            && av_opt_set_int(UnsafeMutableRawPointer(c), "dst_format", Int64(Scaler.outputFormat(g.colour).rawValue), 0) >= 0
            && av_opt_set_int(UnsafeMutableRawPointer(c), "sws_flags", Int64(flags), 0) >= 0
            && av_opt_set_int(UnsafeMutableRawPointer(c), "threads", Int64(Scaler.threads(forOutput: width * height)), 0) >= 0
        guard ok, sws_init_context(c, nil, nil) >= 0 else {
            sws_freeContext(c)
            return nil
        }
        g.colour.apply(to: c)
        sws = c
        geometry = g
        return c
    }

    /// An AVFrame over `dst` (not owning it), made once per distinct target.
    private func targetFrame(_ dst: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int) -> UnsafeMutablePointer<AVFrame>? {
        let key = [Int(bitPattern: dst), stride, width, height]
        if let t = targets.first(where: { $0.key == key }) { return t.frame }
        if targets.count >= 4 {
            for t in targets { var p: UnsafeMutablePointer<AVFrame>? = t.frame; av_frame_free(&p) }
            targets.removeAll()
        }
        guard let fr = av_frame_alloc() else { return nil }
        guard let buf = av_buffer_create(dst.assumingMemoryBound(to: UInt8.self), stride * height,
                                         { _, _ in }, nil, 0) else {
            var p: UnsafeMutablePointer<AVFrame>? = fr
            av_frame_free(&p)
            return nil
        }
        fr.pointee.buf.0 = buf
        fr.pointee.data.0 = dst.assumingMemoryBound(to: UInt8.self)
        fr.pointee.linesize.0 = Int32(stride)
        fr.pointee.width = Int32(width)
        fr.pointee.height = Int32(height)
        fr.pointee.format = AV_PIX_FMT_BGR0.rawValue
        targets.append((key, fr))
        return fr
    }

    func scale(_ frame: VideoFrame, into dst: UnsafeMutableRawPointer, stride: Int,
                       width: Int, height: Int, quality: Quality) {
        let f = quality == .fast ? halved(frame.frame.raw, toward: width, height) : frame.frame.raw
        if quality == .fast, let own = bilinear(for: f, width: width, height: height) {
            own.render(f, into: dst, stride: stride)
            return
        }
        if let own = packed(for: f, width: width, height: height, quality: quality) {
            own.render(f, into: dst, stride: stride)
            return
        }
        guard let sws = context(for: f, width: width, height: height, quality: quality),
              let out = targetFrame(dst, stride: stride, width: width, height: height) else { return }
        let hdr = geometry?.colour.hdr
        out.pointee.format = (geometry.map { Scaler.outputFormat($0.colour) } ?? AV_PIX_FMT_BGR0).rawValue
        _ = sws_scale_frame(sws, out, f)
        // HDR is scaled into the same memory with 10 bits a channel and mapped to SDR in place.
        if let hdr {
            ToneMap.map(for: hdr).apply(dst, stride: stride, width: width, height: height,
                                        bands: Scaler.threads(forOutput: width * height))
        }
    }

    /// The scaler of our own for `f` into `width` x `height`, when it can draw it: 8-bit 4:2:0
    /// SDR that changes size. At its own size swscale's unscaled path (4 M instructions for
    /// 1080p) is cheaper than a pass of ours.
    private func bilinear(for f: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) -> BilinearYUV? {
        let sw = Int(f.pointee.width), sh = Int(f.pointee.height)
        // The format first: reading the colour tags asks libavutil, which a viewer showing
        // only its workers' pictures has no other reason to load.
        let format = f.pointee.format
        guard sw != width || sh != height, format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue else { return nil }
        let colour = SourceColour(of: f)
        guard BilinearYUV.handles(format: f.pointee.format, width: sw, height: sh, colour: colour),
              width >= 1, height >= 1 else { return nil }
        let g = BilinearYUV.Geometry(sourceWidth: sw, sourceHeight: sh, width: width, height: height, colour: colour)
        if let bilinear, bilinear.geometry == g { return bilinear }
        let made = BilinearYUV(g, bands: Scaler.threads(forOutput: width * height))
        bilinear = made
        return made
    }

    /// The still scaler of our own for `f`, when it is four bytes a pixel: every picture a
    /// decode worker sends, so that showing them never loads swscale.
    private func packed(for f: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, quality: Quality) -> PackedScaler? {
        // A picture stored bottom up (a negative stride) is left to swscale, which reads it so.
        guard PackedScaler.handles(format: f.pointee.format), width >= 1, height >= 1,
              f.pointee.width >= 1, f.pointee.height >= 1, f.pointee.data.0 != nil, f.pointee.linesize.0 > 0 else { return nil }
        let g = PackedScaler.Geometry(sourceWidth: Int(f.pointee.width), sourceHeight: Int(f.pointee.height),
                                      width: width, height: height, kernel: quality == .best ? .bicubic : .bilinear)
        if let packedScaler, packedScaler.geometry == g { return packedScaler }
        let made = PackedScaler(g, bands: Scaler.threads(forOutput: width * height))
        packedScaler = made
        return made
    }

    /// What swscale writes: the window's BGRX, or for HDR 10-bit RGB the tone map reads.
    static func outputFormat(_ colour: SourceColour) -> AVPixelFormat {
        colour.hdr == nil ? AV_PIX_FMT_BGR0 : AV_PIX_FMT_X2RGB10LE
    }

    /// Copies a `width` x `height` image into `rect`, turned clockwise by `degrees`.
    static func rotate(source: UnsafePointer<UInt32>, width: Int, height: Int, degrees: Int,
                       into target: ImageTarget, at rect: PixelRect) {
        for ty in 0..<rect.height {
            let row = (target.base + (rect.y + ty) * target.stride + rect.x * 4).assumingMemoryBound(to: UInt32.self)
            for tx in 0..<rect.width {
                let sx: Int, sy: Int
                switch degrees {
                case 90: sx = ty; sy = height - 1 - tx
                case 180: sx = width - 1 - tx; sy = height - 1 - ty
                default: sx = width - 1 - ty; sy = tx
                }
                row[tx] = source[sy * width + sx]
            }
        }
    }
}

extension PixelRect {
    func clipped(to t: ImageTarget) -> PixelRect {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(t.width, x + width), y1 = min(t.height, y + height)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
