import Glibc

/// The bounds an ASS event is held to before libass sees it: font sizes, scales, borders,
/// shadows and blurs a screen can hold, whatever a broken or hostile script asks for.
///
/// libass draws what it is told, however large: a border of 10,000 pixels or a 100000-pixel
/// font is gigabytes of bitmap and minutes of drawing. Every event a player or a file
/// gives is lowered to these bounds as it is decoded, and every style as its header is read.
package enum SubtitleBounds {
    /// The largest font size and scale an event may ask for: a line as tall as several
    /// screens is a broken or hostile script, and drawing it costs time and memory.
    package static let maxFontSize = 400

    /// The largest value each override tag that costs pixels may take, in script pixels
    /// (or percent, for scales). libass draws a border or shadow of 10,000 pixels as asked
    /// (gigabytes of bitmap), so every such tag is bounded before libass sees it.
    package static let tagLimits: [String: Double] = [
        "fs": Double(maxFontSize), "fscx": Double(maxFontSize), "fscy": Double(maxFontSize), "fsp": Double(maxFontSize),
        "bord": 50, "xbord": 50, "ybord": 50, "shad": 50, "xshad": 50, "yshad": 50,
        "be": 20, "blur": 20, "fax": 2, "fay": 2,
    ]
    /// A relative font size (`\fs+N`, `\fs-N`: a tenth of the size per step) may at most
    /// double or halve it; repeated, larger steps would grow it without end.
    package static let relativeFontStep = 10.0

    /// The event with every bounded override tag (`tagLimits`) above its bound lowered to it.
    package static func bounded(_ fields: String) -> String {
        guard fields.contains("\\") else { return fields }
        var out = ""
        var rest = Substring(fields)
        while let slash = rest.firstIndex(of: "\\") {
            out += rest[...slash]
            rest = rest[rest.index(after: slash)...]
            let name = rest.prefix { $0.isASCII && $0.isLetter }
            out += name
            rest = rest.dropFirst(name.count)
            guard let limit = tagLimits[String(name)], let (value, sign, length) = number(rest) else { continue }
            let bound = name == "fs" && sign != 0 ? relativeFontStep : limit
            if value.isNaN || abs(value) > bound {
                // The whole number libass would read is replaced, exponent and all.
                out += rest.prefix { $0 == " " || $0 == "\t" || $0 == "(" }
                out += (value < 0 ? "-" : sign > 0 ? "+" : "") + String(Int(bound))
                rest = rest.dropFirst(length)
            }
        }
        return out + rest
    }

    /// The number at the start of a tag's argument as C's `strtod` reads it (after spaces or
    /// an opening parenthesis; `1e9` and hexadecimal included, which libass's reader may
    /// take too): its value, its explicit sign (0 for none), and the characters it spans.
    package static func number(_ text: Substring) -> (Double, Int, Int)? {
        let lead = text.prefix { $0 == " " || $0 == "\t" || $0 == "(" }
        let head = String(text.dropFirst(lead.count).prefix(40))
        guard let first = head.unicodeScalars.first, "+-.0123456789".unicodeScalars.contains(first) else { return nil }
        var used = 0
        let value = head.withCString { start -> Double in
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(start, &end)
            used = end.map { start.distance(to: UnsafePointer($0)) } ?? 0
            return v
        }
        guard used > 0 else { return nil }
        return (value, first == "+" ? 1 : first == "-" ? -1 : 0, lead.count + used)
    }

    /// The override tags of an event's text with a number after them, by name, each with
    /// the largest size it takes (for the drawing budget; signs ignored).
    package static func largestTags(_ text: String) -> [String: Double] {
        var found: [String: Double] = [:]
        var rest = Substring(text)
        while let slash = rest.firstIndex(of: "\\") {
            rest = rest[rest.index(after: slash)...]
            let name = String(rest.prefix { $0.isASCII && $0.isLetter })
            rest = rest.dropFirst(name.count)
            if tagLimits[name] != nil, let (v, _, _) = number(rest), v.isFinite { found[name] = max(found[name] ?? 0, abs(v)) }
        }
        return found
    }

    /// How many glyphs an event's text draws: characters outside override blocks, line
    /// breaks (`\N`, `\n`, `\h`) and drawings (after `\p1`, up to `\p0`) not counted.
    package static func glyphCount(_ text: String) -> Int {
        var n = 0, drawing = false
        var rest = Substring(text)
        while let c = rest.first {
            if c == "{" {
                let block = rest.prefix { $0 != "}" }
                var tags = block
                while let r = tags.firstRange(of: "\\p") {
                    tags = tags[r.upperBound...]
                    if let d = tags.first, d.isASCII, let v = d.wholeNumberValue { drawing = v != 0 }
                }
                rest = rest.dropFirst(block.count + 1)
                continue
            }
            if c == "\\", let next = rest.dropFirst().first, "Nnh".contains(next) {
                rest = rest.dropFirst(2)
                continue
            }
            if !drawing { n += 1 }
            rest = rest.dropFirst()
        }
        return n
    }
}
