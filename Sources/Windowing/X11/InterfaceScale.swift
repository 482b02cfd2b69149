/// How much larger than at 96 dpi the overlays (track, labels, buttons, messages) are
/// drawn: 1x, 1.5x or 2x, as desktops scale their own interfaces.
public struct InterfaceScale: Sendable, Equatable, CustomStringConvertible {
    /// The scale in percent: 100, 150 or 200.
    public let percent: Int

    /// Ordinary displays (about 96 dpi).
    public static let one = InterfaceScale(percent: 100)
    /// 144 dpi, a common laptop setting.
    public static let oneAndHalf = InterfaceScale(percent: 150)
    /// 192 dpi and more: "HiDPI" and 4K monitors.
    public static let two = InterfaceScale(percent: 200)

    private init(percent: Int) { self.percent = percent }

    /// The nearest of 1x, 1.5x and 2x to `factor` (1.25 and up is 1.5x, 1.75 and up 2x);
    /// nil for a factor that is no scale at all (not a positive finite number).
    public init?(factor: Double) {
        guard factor.isFinite, factor > 0 else { return nil }
        percent = factor < 1.25 ? 100 : factor < 1.75 ? 150 : 200
    }

    /// The scale for a resolution in dots per inch (96 is 1x).
    public init?(dpi: Double) {
        guard dpi.isFinite, dpi > 0 else { return nil }
        self.init(factor: dpi / 96)
    }

    /// The factor as a number: 1, 1.5 or 2.
    public var factor: Double { Double(percent) / 100 }

    /// `pixels` at 1x, in pixels at this scale (rounded to the nearest).
    public func px(_ pixels: Int) -> Int { (pixels * percent + (pixels >= 0 ? 50 : -50)) / 100 }

    /// `1x`, `1.5x` or `2x`.
    public var description: String { percent == 150 ? "1.5x" : "\(percent / 100)x" }

    /// What an X resource database (the root window's `RESOURCE_MANAGER`, as `xrdb` sets
    /// it) says about `Xft.dpi`, the setting desktops use for their interface's scale.
    public enum ResourceDPI: Equatable, Sendable {
        /// No `Xft.dpi` line.
        case unset
        /// A usable resolution in dots per inch.
        case dpi(Double)
        /// A line whose value is no resolution (the text after the colon).
        case invalid(String)
    }

    /// Finds `Xft.dpi` in resource-database text. The last line wins, as in xrdb; values
    /// outside 24...1200 dpi are not a screen's and count as invalid.
    public static func resourceDPI(in text: String) -> ResourceDPI {
        var found = ResourceDPI.unset
        for raw in text.split(whereSeparator: { $0.isNewline }) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            guard line.hasPrefix("Xft.dpi") || line.hasPrefix("*dpi") || line.hasPrefix("Xft*dpi"),
                  let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingSpaces
            guard name == "Xft.dpi" || name == "*dpi" || name == "Xft*dpi" else { continue }
            let value = line[line.index(after: colon)...].trimmingSpaces
            if let d = Double(value), d.isFinite, d >= 24, d <= 1200 {
                found = .dpi(d)
            } else {
                found = .invalid(String(value.prefix(40)))
            }
        }
        return found
    }

    /// The resolution of a monitor from its size in pixels and millimetres, when those
    /// millimetres look like a real screen's (many report 0, or a TV's or projector's
    /// made-up size): 150 mm to 1 m wide, proportioned like its pixels within 15 %, and
    /// 72 to 400 dpi. Nil otherwise.
    public static func monitorDPI(widthPixels: Int, heightPixels: Int, widthMM: Int, heightMM: Int) -> Double? {
        guard widthPixels > 0, heightPixels > 0, widthMM >= 150, widthMM <= 1000, heightMM > 0 else { return nil }
        let pixelShape = Double(widthPixels) / Double(heightPixels)
        let mmShape = Double(widthMM) / Double(heightMM)
        guard abs(pixelShape / mmShape - 1) <= 0.15 else { return nil }
        let dpi = Double(widthPixels) / (Double(widthMM) / 25.4)
        return dpi >= 72 && dpi <= 400 ? dpi : nil
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return s
    }
}
