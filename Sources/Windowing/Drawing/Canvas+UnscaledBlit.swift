/// Pictures drawn at their own size and fully opaque: a gallery redraws a screen of
/// thumbnails (forty 128 px pictures) many times a second while they come in, and the
/// scaling blit's bilinear sampling per pixel cost more than making them.
extension Canvas {
    /// `image` at `rect`, which has its size, blended over the canvas where `visible`
    /// (`rect` clipped to the canvas) lies: the same pixels the scaling blit gives at 1:1
    /// (its weights are then 0, so it samples each source pixel exactly), opaque pixels
    /// copied rather than blended.
    func blitUnscaled(_ image: RGBAImage, at rect: Rect, visible v: Rect) {
        let rowBytes = image.width * 4
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for y in v.y..<v.maxY {
                let src = base + (y - rect.y) * rowBytes
                let row = buffer.row(y)
                for x in v.x..<v.maxX {
                    let s = src + (x - rect.x) * 4
                    let a = UInt32(s[3])
                    if a == 0 { continue }
                    let r = UInt32(s[0]), g = UInt32(s[1]), b = UInt32(s[2])
                    let d = row[x]
                    if a == 255 {
                        row[x] = (d & 0xFF00_0000) | r << 16 | g << 8 | b
                        continue
                    }
                    // Premultiplied source-over, as the scaling blit does it.
                    let ia = 255 - a
                    let nr = min(255, r + Canvas.div255(((d >> 16) & 0xFF) * ia))
                    let ng = min(255, g + Canvas.div255(((d >> 8) & 0xFF) * ia))
                    let nb = min(255, b + Canvas.div255((d & 0xFF) * ia))
                    row[x] = (d & 0xFF00_0000) | nr << 16 | ng << 8 | nb
                }
            }
        }
    }
}
