/// Soft fills: a vertical gradient between two colours, the shading behind a video
/// player's title and controls that darkens the picture only where text sits on it.
extension Canvas {
    /// Fills `rect` with a vertical gradient from `top` at its first row to `bottom` at its
    /// last, each row blended by its own alpha and the canvas opacity.
    ///
    /// Colours and alpha are interpolated in straight (not premultiplied) form, which for
    /// the usual "transparent to dark" shading is the same thing, since the colour stays black.
    public func fillVerticalGradient(_ rect: Rect, top: Color, bottom: Color) {
        let v = rect.intersection(drawableRect)
        guard !v.isEmpty, rect.height > 0 else { return }
        buffer.mark(v)
        let span = Double(max(1, rect.height - 1))
        for y in v.y..<v.maxY {
            let t = Double(y - rect.y) / span
            let color = Canvas.mix(top, bottom, t)
            guard let paint = paint(color) else { continue }
            let row = buffer.row(y)
            for x in v.x..<v.maxX { row[x] = Canvas.blend(row[x], paint, alpha: paint.alpha) }
        }
    }

    /// The colour `t` (0...1) of the way from `a` to `b`, every component, alpha too.
    static func mix(_ a: Color, _ b: Color, _ t: Double) -> Color {
        let f = t.isNaN ? 0 : min(1, max(0, t))
        func c(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) + (Double(y) - Double(x)) * f).rounded()) }
        return Color(r: c(a.r, b.r), g: c(a.g, b.g), b: c(a.b, b.b), a: c(a.a, b.a))
    }
}
