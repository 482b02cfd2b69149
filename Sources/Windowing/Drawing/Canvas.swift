/// Alpha-blended drawing into a `PixelBuffer`, limited to a clip rectangle and faded by a
/// global opacity.
///
/// Overlays (indicators, the progress track, labels) are painted over each video frame
/// just before the blit, so everything here works in place on the borrowed pixels, touches
/// only the pixels inside the shape's bounding box, and keeps the inner loops in integer
/// arithmetic. Shapes take continuous coordinates where pixel `(i, j)` covers
/// `[i, i+1) x [j, j+1)`; edge pixels get partial coverage (anti-aliasing).
///
/// A `Canvas` is a value but the pixels are not: like `PixelBuffer`, copies draw into the
/// same memory, which is why the drawing methods are not `mutating`. Change `clip` or
/// `opacity` on a copy (or use `clipped(to:)` / `faded(by:)`) to scope them to one overlay.
public struct Canvas: Sendable {
    /// The pixels drawn into.
    public var buffer: PixelBuffer
    /// Only pixels inside this rectangle are changed; nil means the whole buffer.
    public var clip: Rect?
    /// Multiplies the alpha of everything drawn, 0...1; the gesture code fades overlays
    /// with it while a view is dragged towards its thumbnail.
    public var opacity: Double

    public init(buffer: PixelBuffer, clip: Rect? = nil, opacity: Double = 1) {
        self.buffer = buffer
        self.clip = clip
        self.opacity = opacity
    }

    /// The whole buffer as a rectangle.
    public var bounds: Rect { Rect(x: 0, y: 0, width: buffer.width, height: buffer.height) }

    /// The pixels that drawing may change: the clip intersected with the buffer.
    public var drawableRect: Rect { clip.map { $0.intersection(bounds) } ?? bounds }

    /// A copy whose clip is the intersection of the current clip and `rect`.
    public func clipped(to rect: Rect) -> Canvas {
        var c = self
        c.clip = drawableRect.intersection(rect)
        return c
    }

    /// A copy whose opacity is multiplied by `factor` (so nested fades compose).
    public func faded(by factor: Double) -> Canvas {
        var c = self
        c.opacity = opacity * factor
        return c
    }

    /// Reads one pixel as 0xXXRRGGBB; nil outside the buffer.
    public func pixel(x: Int, y: Int) -> UInt32? {
        guard bounds.contains(x: x, y: y) else { return nil }
        return buffer.pixel(x: x, y: y)
    }

    /// Fills `rect` with `color`, blended by its alpha and the canvas opacity.
    public func fillRect(_ rect: Rect, color: Color) {
        guard let paint = paint(color) else { return }
        let v = rect.intersection(drawableRect)
        guard !v.isEmpty else { return }
        buffer.mark(v)
        if paint.alpha == 255 {
            // Opaque: a plain store, which is most of a letterbox or a track background.
            let value = paint.rgb
            for y in v.y..<v.maxY {
                let row = buffer.row(y)
                for x in v.x..<v.maxX { row[x] = (row[x] & 0xFF00_0000) | value }
            }
            return
        }
        for y in v.y..<v.maxY {
            let row = buffer.row(y)
            for x in v.x..<v.maxX { row[x] = Canvas.blend(row[x], paint, alpha: paint.alpha) }
        }
    }

    /// Blends a coverage mask (one byte per pixel, 0 transparent to 255 solid) in `color`,
    /// its top-left corner at `(x, y)`. This is how glyph bitmaps reach the pixels.
    public func blendMask(_ mask: UnsafePointer<UInt8>, width: Int, height: Int, pitch: Int,
                   x: Int, y: Int, color: Color) {
        guard let paint = paint(color), width > 0, height > 0 else { return }
        let v = Rect(x: x, y: y, width: width, height: height).intersection(drawableRect)
        guard !v.isEmpty else { return }
        buffer.mark(v)
        for py in v.y..<v.maxY {
            let row = buffer.row(py)
            let src = mask + (py - y) * pitch - x
            for px in v.x..<v.maxX {
                let cov = UInt32(src[px])
                if cov == 0 { continue }
                row[px] = Canvas.blend(row[px], paint, alpha: Canvas.div255(paint.alpha * cov))
            }
        }
    }

    // MARK: - Blending primitives shared by the shape, image and text code

    /// A colour resolved for one draw call: components and alpha with opacity applied.
    struct Paint {
        var r: UInt32
        var g: UInt32
        var b: UInt32
        /// 0...255, colour alpha times canvas opacity.
        var alpha: UInt32
        var rgb: UInt32 { r << 16 | g << 8 | b }
    }

    /// The colour with the canvas opacity folded in; nil when nothing would be visible, so
    /// callers skip the loops entirely (a fully faded overlay costs nothing).
    func paint(_ color: Color) -> Paint? {
        let alpha = UInt32(Canvas.opacityByte(opacity) * UInt32(color.a))
        let a = Canvas.div255(alpha)
        guard a > 0 else { return nil }
        return Paint(r: UInt32(color.r), g: UInt32(color.g), b: UInt32(color.b), alpha: a)
    }

    /// Opacity as 0...255 (NaN and out-of-range values clamped).
    static func opacityByte(_ opacity: Double) -> UInt32 {
        guard !opacity.isNaN else { return 0 }
        return UInt32((min(1, max(0, opacity)) * 255).rounded())
    }

    /// `x / 255` rounded to nearest, exact for `x` in 0...65535, without a division.
    @inline(__always)
    static func div255(_ x: UInt32) -> UInt32 {
        let t = x + 128
        return (t + (t >> 8)) >> 8
    }

    /// Source-over of a straight colour with alpha `a` (0...255) onto `dst`.
    ///
    /// The X byte of `dst` is kept: it is padding in BGRX but may matter to a 32-bit visual.
    @inline(__always)
    static func blend(_ dst: UInt32, _ p: Paint, alpha a: UInt32) -> UInt32 {
        if a >= 255 { return (dst & 0xFF00_0000) | p.rgb }
        let ia = 255 - a
        let r = div255(p.r * a + ((dst >> 16) & 0xFF) * ia)
        let g = div255(p.g * a + ((dst >> 8) & 0xFF) * ia)
        let b = div255(p.b * a + (dst & 0xFF) * ia)
        return (dst & 0xFF00_0000) | r << 16 | g << 8 | b
    }

    /// Coverage fraction (any real) to 0...255.
    @inline(__always)
    static func coverageByte(_ c: Double) -> UInt32 {
        if c <= 0 { return 0 }
        if c >= 1 { return 255 }
        return UInt32(c * 255 + 0.5)
    }
}
