/// An sRGB colour with straight (not premultiplied) 8-bit alpha.
///
/// This is the colour users type (`--theme-color "#3d8bfd"`, `orange`) and the one the
/// drawing calls take; the canvas turns it into a blend factor itself. Alpha 255 is opaque.
public struct Color: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// A colour from 0xRRGGBB (higher bits ignored) and an alpha.
    public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(r: UInt8(truncatingIfNeeded: rgb >> 16), g: UInt8(truncatingIfNeeded: rgb >> 8),
                  b: UInt8(truncatingIfNeeded: rgb), a: alpha)
    }

    /// Parses `#rrggbb`, `rrggbb`, `#rgb`, `rgb`, `#rrggbbaa`, or a CSS colour name.
    ///
    /// Surrounding whitespace and letter case are ignored. Anything else, including a name
    /// we do not know or a hex string of the wrong length, gives nil so the caller can
    /// report the user's typo instead of silently painting black.
    public init?(parsing text: String) {
        let s = text.trimmingWhitespace().lowercased()
        if let named = Color.named[s] {
            self = named
            return
        }
        var hex = Substring(s)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.allSatisfy(\.isHexDigit), hex.allSatisfy(\.isASCII) else { return nil }
        switch hex.count {
        case 3:
            // Each digit stands for itself doubled: "f80" is "ff8800".
            guard let v = UInt32(hex, radix: 16) else { return nil }
            let r = (v >> 8) & 0xF, g = (v >> 4) & 0xF, b = v & 0xF
            self.init(rgb: (r * 17) << 16 | (g * 17) << 8 | b * 17)
        case 6:
            guard let v = UInt32(hex, radix: 16) else { return nil }
            self.init(rgb: v)
        case 8:
            guard let v = UInt32(hex, radix: 16) else { return nil }
            self.init(rgb: v >> 8, alpha: UInt8(v & 0xFF))
        default:
            return nil
        }
    }

    /// The colour as 0xRRGGBB, the layout of an opaque pixel in a `PixelBuffer`.
    public var rgb: UInt32 { UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }

    /// The same colour with a new alpha.
    public func withAlpha(_ alpha: UInt8) -> Color { Color(r: r, g: g, b: b, a: alpha) }

    /// The same colour with alpha set from a fraction in 0...1 (clamped); labelled so that
    /// `withAlpha(128)` cannot silently mean a fraction.
    public func withAlpha(fraction: Double) -> Color { withAlpha(Color.byte(fraction)) }

    /// Linear mix towards `other` by `fraction` (0 gives self, 1 gives other); alpha is mixed too.
    ///
    /// Used to brighten the play indicator while loading without a second theme colour.
    public func mixed(with other: Color, fraction: Double) -> Color {
        let t = fraction.isNaN ? 0 : min(1, max(0, fraction))
        func mix(_ p: UInt8, _ q: UInt8) -> UInt8 {
            UInt8((Double(p) + (Double(q) - Double(p)) * t).rounded())
        }
        return Color(r: mix(r, other.r), g: mix(g, other.g), b: mix(b, other.b), a: mix(a, other.a))
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var description: String {
        func hex2(_ v: UInt8) -> String {
            let digits = Array("0123456789abcdef")
            return String([digits[Int(v >> 4)], digits[Int(v & 0xF)]])
        }
        return "#" + hex2(r) + hex2(g) + hex2(b) + (a == 255 ? "" : hex2(a))
    }

    /// The default theme: a calm blue that reads on both dark video and bright stills.
    public static let defaultTheme = Color(rgb: 0x3D8BFD)
    public static let white = Color(rgb: 0xFFFFFF)
    public static let black = Color(rgb: 0x000000)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)

    /// CSS names we accept. A small set on purpose: the ones people actually type.
    static let named: [String: Color] = [
        "red": Color(rgb: 0xFF0000), "green": Color(rgb: 0x008000), "lime": Color(rgb: 0x00FF00),
        "blue": Color(rgb: 0x0000FF), "white": Color(rgb: 0xFFFFFF), "black": Color(rgb: 0x000000),
        "yellow": Color(rgb: 0xFFFF00), "orange": Color(rgb: 0xFFA500), "purple": Color(rgb: 0x800080),
        "cyan": Color(rgb: 0x00FFFF), "aqua": Color(rgb: 0x00FFFF), "magenta": Color(rgb: 0xFF00FF),
        "fuchsia": Color(rgb: 0xFF00FF), "gray": Color(rgb: 0x808080), "grey": Color(rgb: 0x808080),
        "pink": Color(rgb: 0xFFC0CB), "transparent": Color(r: 0, g: 0, b: 0, a: 0),
    ]

    /// A fraction 0...1 as a byte, rounding to nearest; NaN counts as 0.
    static func byte(_ fraction: Double) -> UInt8 {
        guard !fraction.isNaN else { return 0 }
        return UInt8((min(1, max(0, fraction)) * 255).rounded())
    }
}

extension String {
    /// The string without leading or trailing spaces, tabs or newlines (Foundation-free).
    fileprivate func trimmingWhitespace() -> Substring {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return s
    }
}
