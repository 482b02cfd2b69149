import MediaCore

/// How fast media plays, as a factor of its own pace: from a quarter (0.25) to four times (4).
///
/// The range is what stays useful to watch and to hear: below a quarter speech breaks
/// into separate sounds, above four times it is noise and most frames are dropped anyway.
/// The sound keeps its pitch at every speed.
public struct PlaybackSpeed: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// The speeds a player accepts.
    public static let range: ClosedRange<Double> = 0.25...4
    /// The media's own pace.
    public static let normal = PlaybackSpeed(checked: 1)

    /// The factor: 2 plays a 10 s clip in 5 s.
    public let factor: Double

    /// A speed, or nil when `factor` is outside `range` (or not a number).
    public init?(_ factor: Double) {
        guard factor.isFinite, PlaybackSpeed.range.contains(factor) else { return nil }
        self.init(checked: factor)
    }

    /// The speed nearest to `factor` within `range` (1 for NaN).
    public init(clamping factor: Double) {
        guard !factor.isNaN else { self = .normal; return }
        self.init(checked: min(PlaybackSpeed.range.upperBound, max(PlaybackSpeed.range.lowerBound, factor)))
    }

    private init(checked factor: Double) {
        // Rounded to a thousandth, so ten steps up and ten down come back to exactly 1
        // (which plays the sound untouched) and the display never shows 0.999x.
        self.factor = (factor * 1000).rounded() / 1000
    }

    /// Whether it is the media's own pace, when the sound needs no tempo filter.
    public var isNormal: Bool { factor == 1 }

    /// "1.50x", as the on-screen message shows it.
    public var description: String { TextFormat.fixed(factor, digits: 2) + "x" }

    /// Orders speeds by factor.
    public static func < (a: PlaybackSpeed, b: PlaybackSpeed) -> Bool { a.factor < b.factor }
}
