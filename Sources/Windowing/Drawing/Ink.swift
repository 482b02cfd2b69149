/// Where a frame drew anything but black, grown as it is drawn into.
///
/// A picture smaller than the window sits in black; drawn again each frame, the bars alone
/// are most of the window, and an X server copies all of it on every put. Knowing what a
/// buffer may hold besides black lets the next frame blacken only that and send only what
/// can have changed: a slide show of small pictures costs what the pictures cost.
public final class Ink {
    /// The bounds of everything marked; empty when nothing was.
    public private(set) var bounds = Rect.zero

    public init() {}

    /// Notes that `rect` may now hold something other than black.
    public func mark(_ rect: Rect) {
        guard !rect.isEmpty else { return }
        bounds = bounds.union(rect)
    }
}

extension Rect {
    /// The smallest rectangle holding both; an empty one adds nothing.
    public func union(_ other: Rect) -> Rect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }
}
