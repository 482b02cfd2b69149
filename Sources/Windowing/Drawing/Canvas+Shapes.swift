/// Anti-aliased shapes: rounded rectangles, discs, rings, triangles and thick lines.
///
/// Each shape computes, for the centre of every pixel in its bounding box, the signed
/// distance to its outline and turns it into coverage with a one-pixel ramp
/// (`coverage = clamp(distance_inside + 0.5, 0, 1)`). That is not exact area coverage but
/// it is what the eye reads as a smooth edge, costs a few multiplies a pixel, and needs no
/// scratch memory. Interior pixels skip the square root.
extension Canvas {
    /// Fills `rect` with corners rounded to `radius` (clamped to half the shorter side).
    public func fillRoundedRect(_ rect: Rect, radius: Double, color: Color) {
        let r = min(radius.isNaN ? 0 : max(0, radius), Double(min(rect.width, rect.height)) / 2)
        guard r >= 0.5 else { return fillRect(rect, color: color) }
        guard let paint = paint(color) else { return }
        let v = rect.intersection(drawableRect)
        guard !v.isEmpty else { return }
        buffer.mark(v)
        // The centres of the four corner arcs lie on these lines.
        let left = Double(rect.x) + r, right = Double(rect.maxX) - r
        let top = Double(rect.y) + r, bottom = Double(rect.maxY) - r
        for y in v.y..<v.maxY {
            let row = buffer.row(y)
            let pcy = Double(y) + 0.5
            let dy = pcy < top ? top - pcy : (pcy > bottom ? pcy - bottom : 0)
            if dy == 0 {
                // Between the corners every pixel of the row is inside.
                for x in v.x..<v.maxX { row[x] = Canvas.blend(row[x], paint, alpha: paint.alpha) }
                continue
            }
            for x in v.x..<v.maxX {
                let pcx = Double(x) + 0.5
                let dx = pcx < left ? left - pcx : (pcx > right ? pcx - right : 0)
                let cov: UInt32 = dx == 0 ? 255 : Canvas.coverageByte(r - (dx * dx + dy * dy).squareRoot() + 0.5)
                blendCoverage(row, x, paint, cov)
            }
        }
    }

    /// Fills a disc of `radius` around `(centerX, centerY)`.
    public func fillCircle(centerX: Double, centerY: Double, radius: Double, color: Color) {
        radial(cx: centerX, cy: centerY, outer: radius, inner: nil, color: color)
    }

    /// Fills the largest disc centred in `rect`.
    public func fillCircle(in rect: Rect, color: Color) {
        let c = rect.center
        fillCircle(centerX: c.x, centerY: c.y, radius: Double(min(rect.width, rect.height)) / 2, color: color)
    }

    /// Strokes a circle of `radius` (measured to the middle of the line) `lineWidth` wide.
    public func strokeCircle(centerX: Double, centerY: Double, radius: Double, lineWidth: Double, color: Color) {
        let half = max(0, lineWidth) / 2
        radial(cx: centerX, cy: centerY, outer: radius + half, inner: max(0, radius - half), color: color)
    }

    /// Strokes the largest circle that fits in `rect` with the line's outer edge touching it.
    public func strokeCircle(in rect: Rect, lineWidth: Double, color: Color) {
        let c = rect.center
        let outer = Double(min(rect.width, rect.height)) / 2
        strokeCircle(centerX: c.x, centerY: c.y, radius: outer - lineWidth / 2, lineWidth: lineWidth, color: color)
    }

    /// A disc (`inner` nil) or ring (between `inner` and `outer`) with anti-aliased edges.
    private func radial(cx: Double, cy: Double, outer: Double, inner: Double?, color: Color) {
        guard outer > 0, cx.isFinite, cy.isFinite, let paint = paint(color) else { return }
        let v = drawableRect
        let reach2 = (outer + 0.5) * (outer + 0.5)        // beyond: no coverage
        let solid2 = outer >= 0.5 ? (outer - 0.5) * (outer - 0.5) : -1
        let hole = (inner ?? 0) > 0 ? inner! : nil
        let hollow2 = hole.map { $0 > 0.5 ? ($0 - 0.5) * ($0 - 0.5) : -1 } ?? -1  // within: nothing
        let rim2 = hole.map { ($0 + 0.5) * ($0 + 0.5) } ?? 0            // beyond: hole is no factor
        let y0 = max(v.y, Int((cy - outer - 0.5).rounded(.down)))
        let y1 = min(v.maxY, Int((cy + outer + 0.5).rounded(.up)))
        guard y0 < y1 else { return }
        let left = max(v.x, Int((cx - outer - 0.5).rounded(.down)))
        let right = min(v.maxX, Int((cx + outer + 0.5).rounded(.up)))
        buffer.mark(Rect(x: left, y: y0, width: right - left, height: y1 - y0))
        for y in y0..<y1 {
            let dy = Double(y) + 0.5 - cy
            let dy2 = dy * dy
            guard dy2 < reach2 else { continue }
            // Only the columns the outer edge can reach on this row.
            let span = (reach2 - dy2).squareRoot()
            let x0 = max(v.x, Int((cx - span).rounded(.down)))
            let x1 = min(v.maxX, Int((cx + span).rounded(.up)))
            guard x0 < x1 else { continue }
            let row = buffer.row(y)
            for x in x0..<x1 {
                let dx = Double(x) + 0.5 - cx
                let d2 = dx * dx + dy2
                if d2 >= reach2 || d2 <= hollow2 { continue }
                if d2 <= solid2 && d2 >= rim2 {
                    row[x] = Canvas.blend(row[x], paint, alpha: paint.alpha)
                    continue
                }
                let d = d2.squareRoot()
                var c = min(1, max(0, outer - d + 0.5))
                if let h = hole { c -= min(1, max(0, h - d + 0.5)) }
                blendCoverage(row, x, paint, Canvas.coverageByte(c))
            }
        }
    }

    /// Fills the triangle with corners `a`, `b`, `c` (either winding).
    public func fillTriangle(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double),
                             _ c: (x: Double, y: Double), color: Color) {
        let area2 = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        guard abs(area2) > 1e-9, area2.isFinite, let paint = paint(color) else { return }
        let sign: Double = area2 > 0 ? 1 : -1
        // Each edge as a normalised line equation d(p) = nx*px + ny*py + k, positive inside,
        // so d is the distance in pixels from the edge.
        func edge(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double)) -> (nx: Double, ny: Double, k: Double) {
            let len = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
            let nx = -(q.y - p.y) * sign / len, ny = (q.x - p.x) * sign / len
            return (nx, ny, -(nx * p.x + ny * p.y))
        }
        let e0 = edge(a, b), e1 = edge(b, c), e2 = edge(c, a)
        let v = drawableRect
        let x0 = max(v.x, Int((min(a.x, b.x, c.x) - 0.5).rounded(.down)))
        let x1 = min(v.maxX, Int((max(a.x, b.x, c.x) + 0.5).rounded(.up)))
        let y0 = max(v.y, Int((min(a.y, b.y, c.y) - 0.5).rounded(.down)))
        let y1 = min(v.maxY, Int((max(a.y, b.y, c.y) + 0.5).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        buffer.mark(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        for y in y0..<y1 {
            let row = buffer.row(y)
            let py = Double(y) + 0.5, px = Double(x0) + 0.5
            // Distances change linearly along the row: step instead of re-evaluating.
            var d0 = e0.nx * px + e0.ny * py + e0.k
            var d1 = e1.nx * px + e1.ny * py + e1.k
            var d2 = e2.nx * px + e2.ny * py + e2.k
            for x in x0..<x1 {
                let m = min(d0, d1, d2)
                if m > -0.5 { blendCoverage(row, x, paint, Canvas.coverageByte(m + 0.5)) }
                d0 += e0.nx
                d1 += e1.nx
                d2 += e2.nx
            }
        }
    }

    /// Draws a straight line `thickness` wide with round caps from `from` to `to`.
    public func drawLine(from p: (x: Double, y: Double), to q: (x: Double, y: Double),
                         thickness: Double, color: Color) {
        let half = thickness / 2
        guard half > 0, p.x.isFinite, p.y.isFinite, q.x.isFinite, q.y.isFinite,
              let paint = paint(color) else { return }
        let dx = q.x - p.x, dy = q.y - p.y
        let len2 = dx * dx + dy * dy
        let reach2 = (half + 0.5) * (half + 0.5)
        let solid2 = half >= 0.5 ? (half - 0.5) * (half - 0.5) : -1
        let v = drawableRect
        let x0 = max(v.x, Int((min(p.x, q.x) - half - 0.5).rounded(.down)))
        let x1 = min(v.maxX, Int((max(p.x, q.x) + half + 0.5).rounded(.up)))
        let y0 = max(v.y, Int((min(p.y, q.y) - half - 0.5).rounded(.down)))
        let y1 = min(v.maxY, Int((max(p.y, q.y) + half + 0.5).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        buffer.mark(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        for y in y0..<y1 {
            let row = buffer.row(y)
            let py = Double(y) + 0.5 - p.y
            for x in x0..<x1 {
                let px = Double(x) + 0.5 - p.x
                // Distance to the nearest point of the segment (the caps are its ends).
                let t = len2 > 0 ? min(1, max(0, (px * dx + py * dy) / len2)) : 0
                let ex = px - t * dx, ey = py - t * dy
                let e2 = ex * ex + ey * ey
                if e2 >= reach2 { continue }
                let cov: UInt32 = e2 <= solid2 ? 255 : Canvas.coverageByte(half - e2.squareRoot() + 0.5)
                blendCoverage(row, x, paint, cov)
            }
        }
    }

    /// Blends `paint` into `row[x]` at `coverage` (0...255) of its alpha.
    @inline(__always)
    func blendCoverage(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ paint: Paint, _ coverage: UInt32) {
        guard coverage > 0 else { return }
        let a = coverage >= 255 ? paint.alpha : Canvas.div255(paint.alpha * coverage)
        row[x] = Canvas.blend(row[x], paint, alpha: a)
    }
}
