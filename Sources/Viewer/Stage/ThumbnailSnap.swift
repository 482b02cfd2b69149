import Windowing

/// Where a thumbnail the user moved or resized comes to rest: pure geometry on the free
/// part of a monitor, so it is tested on its own.
///
/// Resting places are the four corners and the middles of the four edges, at the usual
/// 12 px margin plus the view's buffers. A thumbnail released within 24 px of one snaps
/// there; elsewhere it stays where it was dropped, pulled back inside the free area.
enum ThumbnailSnap {
    /// How close a released thumbnail must be to a resting place to snap to it.
    static let distance = 24
    /// The smallest thumbnail width a user can make: controls still fit.
    static let minimumWidth = 160

    /// The resting places for a thumbnail of `size` inside `free`.
    static func restingPlaces(size: (width: Int, height: Int), in free: Rect, top: Int, bottom: Int) -> [Rect] {
        let m = ThumbnailLayout.margin
        let left = free.x + m, right = free.maxX - m - size.width
        let upper = free.y + m + top, lower = free.maxY - m - bottom - size.height
        let midX = free.x + (free.width - size.width) / 2, midY = free.y + (free.height - size.height) / 2
        return [(right, lower), (left, lower), (right, upper), (left, upper),
                (midX, lower), (midX, upper), (left, midY), (right, midY)]
            .map { Rect(x: $0.0, y: $0.1, width: size.width, height: size.height) }
    }

    /// Where `frame`, released by the user, comes to rest.
    static func settle(_ frame: Rect, in free: Rect, top: Int, bottom: Int) -> Rect {
        let places = restingPlaces(size: (frame.width, frame.height), in: free, top: top, bottom: bottom)
        let near = places.map { p in (p, max(abs(p.x - frame.x), abs(p.y - frame.y))) }.min { $0.1 < $1.1 }
        if let (place, d) = near, d <= distance { return place }
        return inside(frame, free)
    }

    /// `frame` moved the least so that it lies inside `free` (its top-left kept when it is
    /// larger than `free`).
    static func inside(_ frame: Rect, _ free: Rect) -> Rect {
        let x = max(free.x, min(free.maxX - frame.width, frame.x))
        let y = max(free.y, min(free.maxY - frame.height, frame.y))
        return Rect(x: x, y: y, width: frame.width, height: frame.height)
    }

    /// `frame` scaled by `factor` with height `aspect` times its width, between `minimumWidth` and half the
    /// monitor's width; the corner nearest the monitor's edges stays put, as a thumbnail
    /// docked bottom right grows up and to the left.
    static func resized(_ frame: Rect, by factor: Double, aspect: Double, monitor: Rect) -> Rect {
        guard factor.isFinite, factor > 0, frame.width > 0, aspect.isFinite, aspect > 0 else { return frame }
        let widest = max(minimumWidth, monitor.width / 2)
        let w = max(minimumWidth, min(widest, Int((Double(frame.width) * factor).rounded())))
        let h = max(1, Int((Double(w) * aspect).rounded()))
        let (cx, cy) = frame.center
        let (mx, my) = monitor.center
        let x = cx >= mx ? frame.maxX - w : frame.x
        let y = cy >= my ? frame.maxY - h : frame.y
        return inside(Rect(x: x, y: y, width: w, height: h), monitor)
    }

    /// The edges of a thumbnail a drag can pull.
    struct Edges: Equatable {
        var left = false, top = false, right = false, bottom = false
        var isEmpty: Bool { !(left || top || right || bottom) }
    }

    /// How close to its border a press must be to pull an edge rather than move the view.
    static let edgeReach = 8

    /// Which edges a press at (x, y) inside a `width` x `height` thumbnail pulls.
    static func edges(atX x: Int, y: Int, width: Int, height: Int) -> Edges {
        Edges(left: x < edgeReach, top: y < edgeReach, right: x >= width - edgeReach, bottom: y >= height - edgeReach)
    }

    /// `start` resized by pulling `edges` by (dx, dy): the aspect kept (height `aspect`
    /// times the width), between `minimumWidth` and half the monitor, the opposite edges
    /// staying put.
    static func resized(_ start: Rect, pulling edges: Edges, dx: Int, dy: Int, aspect: Double, monitor: Rect) -> Rect {
        guard !edges.isEmpty, aspect.isFinite, aspect > 0 else { return start }
        var candidates: [Double] = []
        if edges.right { candidates.append(Double(start.width + dx)) }
        if edges.left { candidates.append(Double(start.width - dx)) }
        if edges.bottom { candidates.append(Double(start.height + dy) / aspect) }
        if edges.top { candidates.append(Double(start.height - dy) / aspect) }
        // At a corner the larger pull wins, as window managers resize.
        let wanted = candidates.max() ?? Double(start.width)
        let widest = max(minimumWidth, monitor.width / 2)
        let w = max(minimumWidth, min(widest, Int(wanted.rounded())))
        let h = max(1, Int((Double(w) * aspect).rounded()))
        let x = edges.left ? start.maxX - w : start.x
        let y = edges.top ? start.maxY - h : start.y
        return Rect(x: x, y: y, width: w, height: h)
    }
}
