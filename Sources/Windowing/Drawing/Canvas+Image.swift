/// Scaled, alpha-blended drawing of `RGBAImage`s: custom indicator icons and artwork.
///
/// Bilinear filtering in 16.16 fixed point over premultiplied pixels. It is the right
/// filter for icons drawn near their natural size, which is what custom indicators are;
/// it does not average over more than 2x2 source pixels, so shrinking a large image by
/// much more than half will alias. Callers that show big artwork small should pre-scale
/// it once rather than every frame.
extension Canvas {
    /// Scales `image` to fill `rect` (no aspect preservation; pass an aspect-fitted rect)
    /// and blends it over the canvas, its alpha multiplied by `opacity` and the canvas opacity.
    public func blit(image: RGBAImage, in rect: Rect, opacity: Double = 1) {
        guard !rect.isEmpty else { return }
        let op = Canvas.div255(Canvas.opacityByte(self.opacity) * Canvas.opacityByte(opacity))
        guard op > 0 else { return }
        let v = rect.intersection(drawableRect)
        guard !v.isEmpty else { return }
        buffer.mark(v)
        let sw = image.width, sh = image.height
        if rect.width == sw && rect.height == sh && op == 255 { return blitUnscaled(image, at: rect, visible: v) }
        // Source position of each destination pixel centre, in 16.16: centre-aligned so a
        // 1:1 blit samples each source pixel exactly and an upscale is symmetric.
        let stepX = (sw << 16) / rect.width, stepY = (sh << 16) / rect.height
        let startX = stepX / 2 - 0x8000, startY = stepY / 2 - 0x8000
        let rowBytes = sw * 4
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for y in v.y..<v.maxY {
                let (sy0, sy1, fy) = Canvas.sample(startY + (y - rect.y) * stepY, limit: sh)
                let rowA = base + sy0 * rowBytes, rowB = base + sy1 * rowBytes
                let wy1 = UInt32(fy), wy0 = 256 - wy1
                let row = buffer.row(y)
                var u = startX + (v.x - rect.x) * stepX
                for x in v.x..<v.maxX {
                    let (sx0, sx1, fx) = Canvas.sample(u, limit: sw)
                    u += stepX
                    let wx1 = UInt32(fx), wx0 = 256 - wx1
                    let a00 = rowA + sx0 * 4, a01 = rowA + sx1 * 4
                    let b00 = rowB + sx0 * 4, b01 = rowB + sx1 * 4
                    @inline(__always) func channel(_ i: Int) -> UInt32 {
                        let top = UInt32(a00[i]) * wx0 + UInt32(a01[i]) * wx1
                        let bottom = UInt32(b00[i]) * wx0 + UInt32(b01[i]) * wx1
                        return (top * wy0 + bottom * wy1 + 0x8000) >> 16
                    }
                    var a = channel(3)
                    if a == 0 { continue }
                    var r = channel(0), g = channel(1), b = channel(2)
                    if op < 255 {
                        r = Canvas.div255(r * op)
                        g = Canvas.div255(g * op)
                        b = Canvas.div255(b * op)
                        a = Canvas.div255(a * op)
                    }
                    let d = row[x], ia = 255 - a
                    // Premultiplied source-over; min() guards rounding in sloppy decoders'
                    // premultiplication (colour slightly above alpha).
                    let nr = min(255, r + Canvas.div255(((d >> 16) & 0xFF) * ia))
                    let ng = min(255, g + Canvas.div255(((d >> 8) & 0xFF) * ia))
                    let nb = min(255, b + Canvas.div255((d & 0xFF) * ia))
                    row[x] = (d & 0xFF00_0000) | nr << 16 | ng << 8 | nb
                }
            }
        }
    }

    /// Splits a 16.16 source coordinate into the two neighbouring indices and the 8-bit
    /// weight of the second, clamping at the image edges (edge pixels extend outwards).
    @inline(__always)
    static func sample(_ pos: Int, limit: Int) -> (Int, Int, Int) {
        if pos <= 0 { return (0, 0, 0) }
        let i = pos >> 16
        if i >= limit - 1 { return (limit - 1, limit - 1, 0) }
        return (i, i + 1, (pos >> 8) & 0xFF)
    }

    /// The largest rect with `image`'s aspect ratio centred inside `rect` (aspect fit).
    public static func aspectFit(_ image: RGBAImage, in rect: Rect) -> Rect {
        guard !rect.isEmpty else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        // Compare cross products in integers so a square icon in a square rect is exact.
        if image.width * rect.height >= image.height * rect.width {
            let h = max(1, rect.width * image.height / image.width)
            return rect.centered(width: rect.width, height: h)
        }
        let w = max(1, rect.height * image.width / image.height)
        return rect.centered(width: w, height: rect.height)
    }
}
