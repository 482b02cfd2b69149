/// The few number and text formats the viewer prints, without Foundation's
/// `String(format:)` (which needs all of Foundation and ICU loaded, ~6 MiB resident).
public enum TextFormat {
    /// `x` with exactly `digits` decimals, rounded half away from zero: "12.345".
    public static func fixed(_ x: Double, digits: Int) -> String {
        guard x.isFinite else { return x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(x) * scale).rounded()
        // Beyond 2^53 a Double has no fraction left to print.
        guard scaled < 9.0e15 else { return String(x) }
        let units = Int(scaled)
        let whole = units / Int(scale), fraction = units % Int(scale)
        let sign = x < 0 && units != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        return sign + String(whole) + "." + padded(fraction, width: digits)
    }

    /// `n` with leading zeros up to `width` digits: padded(7, width: 2) is "07".
    public static func padded(_ n: Int, width: Int) -> String {
        let digits = String(abs(n))
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (n < 0 ? "-" : "") + zeros + digits
    }

    /// `%20`-style escapes decoded to bytes (URLs, file:// URIs); a malformed escape is
    /// kept as written.
    public static func percentDecoded(_ s: String) -> String {
        var out: [UInt8] = []
        var bytes = Array(s.utf8)[...]
        while let b = bytes.popFirst() {
            if b == UInt8(ascii: "%"), bytes.count >= 2,
               let v = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                out.append(v)
                bytes = bytes.dropFirst(2)
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space (Unicode's, line breaks too).
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs: a header field's value, as HTTP and EXIF pad it.
    package var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Text a peer sent, quoted inside our one-line messages: a clipboard's line, a bus
/// caller's value. Whatever it holds, the message stays one short line that does not
/// drive the terminal it is printed on.
extension TextFormat {
    /// The first `limit` characters of `text`, with line breaks, other control characters
    /// (an escape sequence would recolour or rewrite a terminal) and bytes that are not
    /// UTF-8 each shown as U+FFFD.
    public static func quotable(_ text: String, limit: Int = 60) -> String {
        var out = String.UnicodeScalarView()
        for scalar in FileName.display(String(text.prefix(limit))).unicodeScalars {
            let control = scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                || scalar.value == 0x2028 || scalar.value == 0x2029
            out.append(control ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }
}
