import CFFmpeg

/// Converts and scales frames straight into the caller's BGRX memory with libswscale.
///
/// One scaler per output surface: a `SwsContext` is not safe to share between threads, and
/// keeping it lets `sws_getCachedContext` reuse it while the geometry stays the same.
public final class Scaler {
    private var sws: OpaquePointer?
    /// Reused for rotated frames: scaled here first, then turned while copied out.
    private var rotateBuffer: UnsafeMutableRawPointer?
    private var rotateBufferSize = 0

    /// Speed against quality: moving video wants fast bilinear, a still a better filter.
    public enum Quality: Sendable { case fast, best }

    public init() {}

    deinit {
        sws_freeContext(sws)
        rotateBuffer?.deallocate()
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
        guard let clone = av_frame_clone(frame.frame.raw) else { return }
        var c: UnsafeMutablePointer<AVFrame>? = clone
        defer { av_frame_free(&c) }
        clone.pointee.crop_left = Int(max(0, (fx0 * w).rounded(.down)))
        clone.pointee.crop_right = Int(max(0, w - (fx1 * w).rounded(.up)))
        clone.pointee.crop_top = Int(max(0, (fy0 * h).rounded(.down)))
        clone.pointee.crop_bottom = Int(max(0, h - (fy1 * h).rounded(.up)))
        guard av_frame_apply_cropping(clone, Int32(AV_FRAME_CROP_UNALIGNED)) >= 0 else { return }
        let cropped = VideoFrame(frame: Frame(adopting: clone), pts: frame.pts, duration: frame.duration,
                                 serial: frame.serial, rotation: frame.rotation)
        c = nil
        render(cropped, into: target, rect: visible, quality: quality, rotation: turn - frame.rotation)
    }

    private func scale(_ frame: VideoFrame, into dst: UnsafeMutableRawPointer, stride: Int,
                       width: Int, height: Int, quality: Quality) {
        let f = frame.frame.raw
        let flags = quality == .fast ? SWS_BILINEAR : (SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        sws = sws_getCachedContext(sws, f.pointee.width, f.pointee.height,
                                   AVPixelFormat(rawValue: f.pointee.format),
                                   Int32(width), Int32(height), AV_PIX_FMT_BGR0, flags, nil, nil, nil)
        guard let sws else { return }
        var dstData: [UnsafeMutablePointer<UInt8>?] = [dst.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
        var dstStride: [Int32] = [Int32(stride), 0, 0, 0]
        withUnsafePointer(to: &f.pointee.data) { dataTuple in
            withUnsafePointer(to: &f.pointee.linesize) { sizeTuple in
                dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                    sizeTuple.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                        _ = sws_scale(sws, src, srcStride, 0, f.pointee.height, &dstData, &dstStride)
                    }
                }
            }
        }
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
