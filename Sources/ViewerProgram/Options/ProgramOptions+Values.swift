import Playback
import Viewer

// Value parsers: each checks one kind of value and says what was wanted and what came.
extension ProgramOptions {
    /// `--ui-scale`: 1, 1.5 or 2 (an `x` after it is fine), or auto; nil for auto.
    static func uiScale(_ text: String) throws(OptionError) -> Int? {
        let t = text.lowercased().hasSuffix("x") ? String(text.lowercased().dropLast()) : text.lowercased()
        switch t {
        case "auto": return nil
        case "1", "1.0": return 100
        case "1.5": return 150
        case "2", "2.0": return 200
        default: throw OptionError("--ui-scale must be 1, 1.5, 2 or auto, got '\(text)'")
        }
    }

    /// `--cursor-autohide`: no, always, or milliseconds after the last move, as mpv reads it;
    /// `with-controls`, the default, names itself so a script can put it back.
    static func pointerHiding(_ text: String) throws(OptionError) -> PointerHiding {
        switch text {
        case "no": return .never
        case "always": return .always
        case "with-controls": return .withControls
        default:
            guard let ms = Int(text), ms >= 0, ms <= 86_400_000 else {
                throw OptionError("--cursor-autohide must be no, always, with-controls or milliseconds, got '\(text)'")
            }
            return .afterIdle(seconds: Double(ms) / 1000)
        }
    }

    /// How `pointerHiding(_:)` reads `hiding` back: mpv's word or its milliseconds.
    static func cursorAutohide(_ hiding: PointerHiding) -> String {
        switch hiding {
        case .never: "no"
        case .always: "always"
        case .withControls: "with-controls"
        case .afterIdle(let seconds): String(Int((seconds * 1000).rounded()))
        }
    }

    static func nonEmpty(_ option: String, _ text: String) throws(OptionError) -> String {
        guard !text.isEmpty else { throw OptionError("\(option) needs a value, got ''") }
        return text
    }

    static func integer(_ option: String, _ text: String, in range: ClosedRange<Int>) throws(OptionError) -> Int {
        guard let value = Int(text) else {
            throw OptionError("\(option) needs a whole number, got '\(text)'")
        }
        guard range.contains(value) else {
            let wanted = range.upperBound == Int.max ? "at least \(range.lowerBound)"
                                                     : "from \(range.lowerBound) to \(range.upperBound)"
            throw OptionError("\(option) must be \(wanted), got '\(text)'")
        }
        return value
    }

    /// A finite number or a fraction `a/b`.
    static func number(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        switch parts.count {
        case 1: value = Double(text)
        case 2:
            guard let top = Double(parts[0]), let bottom = Double(parts[1]), bottom != 0 else { return nil }
            value = top / bottom
        default: value = nil
        }
        guard let value, value.isFinite else { return nil }
        return value
    }

    /// Above 0 and at most `limit` (a day of seconds by default): a larger number is a typo,
    /// and it would overflow the integer clocks the player converts it to.
    static func positiveNumber(_ option: String, _ text: String, unit: String,
                               limit: Double = 86_400) throws(OptionError) -> Double {
        guard let value = number(text), value > 0, value <= limit else {
            throw OptionError("\(option) needs \(unit) greater than 0 and at most \(Int(limit)), got '\(text)'")
        }
        return value
    }

    static func speed(_ text: String) throws(OptionError) -> Double {
        guard let value = number(text), let speed = PlaybackSpeed(value) else {
            throw OptionError("--speed needs a speed from 0.25 to 4 (1 is normal), got '\(text)'")
        }
        return speed.factor
    }

    static func fraction(_ option: String, _ text: String) throws(OptionError) -> Double {
        guard let value = number(text), value > 0, value <= 1 else {
            throw OptionError("\(option) needs a number above 0 and at most 1, got '\(text)'")
        }
        return value
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ option: String, _ text: String) throws(OptionError) -> T
        where T.RawValue == String {
        guard let value = T(rawValue: text.lowercased()) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw OptionError("\(option) must be one of \(names), got '\(text)'")
        }
        return value
    }

    static func geometry(_ text: String) throws(OptionError) -> Geometry {
        let bad = OptionError("--geometry needs WxH or WxH+X+Y with sizes of at least 1, got '\(text)'")
        let sizeEnd = text.firstIndex(where: { $0 == "+" || $0 == "-" }) ?? text.endIndex
        let size = text[..<sizeEnd].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        // X11 sizes are 16-bit; anything bigger is a typo, not a monitor.
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]),
              (1...32767).contains(width), (1...32767).contains(height) else { throw bad }
        var geometry = Geometry(width: width, height: height)
        let position = text[sizeEnd...]
        if position.isEmpty { return geometry }
        // Split "+10-20" into "+10", "-20", keeping each sign with its number.
        var offsets: [Int] = []
        var rest = Substring(position)
        while let sign = rest.first, sign == "+" || sign == "-" {
            let body = rest.dropFirst()
            let end = body.firstIndex(where: { $0 == "+" || $0 == "-" }) ?? body.endIndex
            guard let value = Int(body[..<end]), body[..<end].allSatisfy(\.isNumber) else { throw bad }
            offsets.append(sign == "-" ? -value : value)
            rest = body[end...]
        }
        guard rest.isEmpty, offsets.count == 2 else { throw bad }
        (geometry.x, geometry.y) = (offsets[0], offsets[1])
        return geometry
    }

    static func windowID(_ text: String) throws(OptionError) -> UInt32 {
        let lower = text.lowercased()
        let parsed = lower.hasPrefix("0x") ? UInt32(lower.dropFirst(2), radix: 16) : UInt32(lower, radix: 10)
        guard let id = parsed, id != 0 else {
            throw OptionError("--wid needs an X11 window id (decimal or 0x hex, not 0), got '\(text)'")
        }
        return id
    }

    static func aspect(_ text: String) throws(OptionError) -> Double {
        let presets: [String: Double] = ["landscape": 9.0 / 16.0, "square": 1, "portrait": 16.0 / 9.0]
        if let preset = presets[text.lowercased()] { return preset }
        guard let value = number(text), value > 0 else {
            throw OptionError("--minimized-aspect needs landscape, square, portrait or a height/width above 0, got '\(text)'")
        }
        return min(max(value, 9.0 / 16.0), 16.0 / 9.0)
    }

    static func buffer(_ option: String, _ text: String) throws(OptionError) -> Int {
        switch text.lowercased() {
        case "panel": return 32
        case "taskbar": return 48
        case "none": return 0
        default:
            guard let value = Int(text), value >= 0, value <= 32767 else {
                throw OptionError("\(option) needs pixels (0 or more) or panel/taskbar, got '\(text)'")
            }
            return value
        }
    }

    static func color(_ text: String) throws(OptionError) -> RGBColor {
        let bad = OptionError("--theme-color needs #rgb, #rrggbb or a colour name (e.g. red, orange), got '\(text)'")
        let lower = text.lowercased()
        if let named = namedColors[lower] { return named }
        guard lower.hasPrefix("#") else { throw bad }
        let hex = lower.dropFirst()
        guard hex.allSatisfy(\.isHexDigit), hex.allSatisfy(\.isASCII) else { throw bad }
        let digits = hex.compactMap { UInt8(String($0), radix: 16) }
        switch digits.count {
        case 3: return RGBColor(red: digits[0] * 17, green: digits[1] * 17, blue: digits[2] * 17)
        case 6: return RGBColor(red: digits[0] << 4 | digits[1], green: digits[2] << 4 | digits[3],
                                blue: digits[4] << 4 | digits[5])
        default: throw bad
        }
    }

    /// CSS's values for these names (so `green` is #008000, not #00ff00).
    static let namedColors: [String: RGBColor] = [
        "red": RGBColor(red: 255, green: 0, blue: 0), "green": RGBColor(red: 0, green: 128, blue: 0),
        "blue": RGBColor(red: 0, green: 0, blue: 255), "white": RGBColor(red: 255, green: 255, blue: 255),
        "black": RGBColor(red: 0, green: 0, blue: 0), "yellow": RGBColor(red: 255, green: 255, blue: 0),
        "orange": RGBColor(red: 255, green: 165, blue: 0), "purple": RGBColor(red: 128, green: 0, blue: 128),
        "cyan": RGBColor(red: 0, green: 255, blue: 255), "magenta": RGBColor(red: 255, green: 0, blue: 255),
        "gray": RGBColor(red: 128, green: 128, blue: 128), "grey": RGBColor(red: 128, green: 128, blue: 128),
        "pink": RGBColor(red: 255, green: 192, blue: 203),
    ]
}
