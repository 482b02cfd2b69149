/// An integer rectangle in pixels, origin at the top-left, y growing downwards.
///
/// Overlays are laid out on the pixel grid, so integers keep layout exact and make the
/// clipping arithmetic in the drawing loops free of rounding questions. A rectangle
/// covers the pixels `x ..< x + width` and `y ..< y + height`; a negative width or height
/// is treated as empty.
public struct Rect: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle with no area at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// One past the right-most column.
    public var maxX: Int { x + width }
    /// One past the bottom row.
    public var maxY: Int { y + height }

    /// True when the rectangle covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The centre in continuous coordinates, where pixel `(i, j)` spans `[i, i+1) x [j, j+1)`.
    ///
    /// Returned as Doubles because the centre of an even-sized rect falls between pixels,
    /// and the anti-aliased shapes want exactly that point.
    public var center: (x: Double, y: Double) {
        (Double(x) + Double(width) / 2, Double(y) + Double(height) / 2)
    }

    /// The rectangle shrunk by `dx` on the left and right and `dy` at the top and bottom.
    ///
    /// Negative values grow it. Never returns a negative size: an over-inset collapses to an
    /// empty rect at the centre, so callers can inset blindly.
    public func insetBy(dx: Int, dy: Int) -> Rect {
        let w = width - 2 * dx, h = height - 2 * dy
        return Rect(x: x + dx + min(0, w) / 2, y: y + dy + min(0, h) / 2,
                    width: max(0, w), height: max(0, h))
    }

    /// The rectangle shrunk by `d` on every side.
    public func insetBy(_ d: Int) -> Rect { insetBy(dx: d, dy: d) }

    /// True when pixel `(x, y)` lies inside.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    /// The common part of two rectangles; empty (`width` or `height` 0) when they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// True when the two rectangles share at least one pixel.
    public func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    /// A rectangle of the given size centred on this one (rounded towards the top-left).
    public func centered(width w: Int, height h: Int) -> Rect {
        Rect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }

    /// The largest centred square that fits inside.
    public var centeredSquare: Rect {
        let side = max(0, min(width, height))
        return centered(width: side, height: side)
    }

    public var description: String { "Rect(x: \(x), y: \(y), w: \(width), h: \(height))" }
}
