/// The geometry of the minimize gesture: where the minimized thumbnail sits and how the
/// frame moves between fullscreen and it.
///
/// Pure arithmetic on the monitor's size and the view's options, so it is tested on its own.
public struct ThumbnailLayout: Sendable, Equatable {
    /// The monitor's width W (its free part, without panels).
    public var screenWidth: Int
    /// The monitor's height H (its free part, without panels).
    public var screenHeight: Int
    /// Where the free part starts on the X screen (monitors side by side share one screen).
    public var originX: Int
    /// Where the free part starts vertically.
    public var originY: Int
    /// Thumbnail width over W; clamped to [0.1, (W - 24) / W].
    public var widthRatio: Double
    /// Thumbnail height over its width; clamped to [9/16, 16/9].
    public var aspectRatio: Double
    /// Extra space kept free below the thumbnail (a panel or task bar).
    public var bottomBuffer: Int
    /// Gap to the right and bottom edges.
    public static let margin = 12

    /// A layout for a monitor's free area and a view's thumbnail options; out-of-range
    /// options are clamped.
    public init(screenWidth: Int, screenHeight: Int, widthRatio: Double, aspectRatio: Double, bottomBuffer: Int,
                originX: Int = 0, originY: Int = 0) {
        self.originX = originX
        self.originY = originY
        self.screenWidth = max(1, screenWidth)
        self.screenHeight = max(1, screenHeight)
        let maxRatio = max(0.1, Double(self.screenWidth - 2 * ThumbnailLayout.margin) / Double(self.screenWidth))
        self.widthRatio = min(maxRatio, max(0.1, widthRatio.isFinite ? widthRatio : 1.0 / 3.0))
        self.aspectRatio = min(16.0 / 9.0, max(9.0 / 16.0, aspectRatio.isFinite ? aspectRatio : 9.0 / 16.0))
        self.bottomBuffer = max(0, bottomBuffer)
    }

    /// The thumbnail's size.
    public var minimizedSize: (width: Int, height: Int) {
        let w = (Double(screenWidth) * widthRatio).rounded()
        return (Int(w), Int((w * aspectRatio).rounded()))
    }

    /// The thumbnail's frame: bottom right, `margin` from the right edge and
    /// `margin + bottomBuffer` from the bottom.
    public var minimizedFrame: Rect {
        let s = minimizedSize
        return Rect(x: originX + screenWidth - ThumbnailLayout.margin - s.width,
                    y: originY + screenHeight - ThumbnailLayout.margin - bottomBuffer - s.height,
                    width: s.width, height: s.height)
    }

    /// The whole free area.
    public var fullscreenFrame: Rect { Rect(x: originX, y: originY, width: screenWidth, height: screenHeight) }

    /// How far down the drag must go for progress 1: from the presented frame's top to the
    /// thumbnail's.
    public func maxY(from start: Rect? = nil) -> Int { max(1, minimizedFrame.y - (start ?? fullscreenFrame).y) }

    /// Progress of a drag that moved `dy` pixels down (negative: up), from the presented
    /// frame or from the thumbnail.
    public func progress(dragDY dy: Int, startedMinimized: Bool, from start: Rect? = nil) -> Double {
        let p = (startedMinimized ? 1 : 0) + Double(dy) / Double(maxY(from: start))
        return min(1, max(0, p))
    }

    /// The frame at progress `p`: size interpolated, right and bottom edges moving from the
    /// presented frame's (the screen's, when fullscreen) to the thumbnail's.
    public func frame(progress p: Double, from start: Rect? = nil) -> Rect {
        let p = min(1, max(0, p))
        let s = start ?? fullscreenFrame
        let m = minimizedFrame
        let w = Double(s.width) - p * Double(s.width - m.width)
        let h = Double(s.height) - p * Double(s.height - m.height)
        let right = Double(s.maxX) - p * Double(s.maxX - m.maxX)
        let bottom = Double(s.maxY) - p * Double(s.maxY - m.maxY)
        let wi = Int(w.rounded()), hi = Int(h.rounded())
        return Rect(x: Int(right.rounded()) - wi, y: Int(bottom.rounded()) - hi, width: wi, height: hi)
    }

    /// Linear interpolation between two frames, for the snap animations.
    public static func interpolate(_ a: Rect, _ b: Rect, _ t: Double) -> Rect {
        func mix(_ x: Int, _ y: Int) -> Int { Int((Double(x) + (Double(y) - Double(x)) * t).rounded()) }
        return Rect(x: mix(a.x, b.x), y: mix(a.y, b.y), width: mix(a.width, b.width), height: mix(a.height, b.height))
    }

    /// Where a released drag settles: minimized past 40 % (75 % when it started minimized,
    /// so a small upward pull is enough to restore).
    public static func settlesMinimized(progress p: Double, startedMinimized: Bool) -> Bool {
        p >= (startedMinimized ? 0.75 : 0.4)
    }

    /// A thumbnail dragged right is dismissed past 40 % of its width.
    public func dismissesThumbnail(dragDX dx: Int) -> Bool {
        Double(dx) >= 0.4 * Double(minimizedSize.width)
    }

    /// In `.dismiss` mode a drag down dismisses past 35 % of H, or past 25 % when fast.
    public func dismissesDown(dragDY dy: Int, velocity: Double) -> Bool {
        let h = Double(screenHeight)
        return Double(dy) >= 0.35 * h || (Double(dy) >= 0.25 * h && velocity >= 1000)
    }
}
