/// A text line as mpv's input.conf reads it: words split on spaces, `"..."` with C escapes,
/// `'...'` taken as it is, `#` starting a comment, `;` between commands, and the prefixes
/// before a command (`raw`, `async`, `no-osd`, `osd-msg`, ...).
///
/// umpv sends `raw loadfile "/path with \"quotes\"" append`; without this a path's quotes
/// became part of the file name.
public enum IPCTextCommand {
    /// One command of a line with the prefixes written before it.
    public struct Parsed: Equatable, Sendable {
        /// The words, unquoted.
        public var words: [String]
        /// The prefixes, in order.
        public var prefixes: [String]
    }

    /// mpv's command prefixes. They tune mpv's on-screen display, its property expansion
    /// and whether the command runs in the background; here only `expand-properties` and
    /// `raw` change anything (for `show-text`).
    public static let prefixes: Set<String> = [
        "raw", "expand-properties", "async", "sync", "no-osd", "osd-auto", "osd-bar", "osd-msg", "osd-msg-bar",
        "repeatable", "nonrepeatable", "nonscalable", "log",
    ]

    /// The commands on `line`; mpv's error for an unclosed quote or a bad escape.
    public static func parse(_ line: String) throws(IPCError) -> [Parsed] {
        var commands: [Parsed] = []
        var words: [String] = []
        var scalars = Array(line.unicodeScalars)[...]
        func finish() {
            var w = words[...]
            var pre: [String] = []
            while let first = w.first, prefixes.contains(first), w.count > 1 { pre.append(first); w = w.dropFirst() }
            if !w.isEmpty { commands.append(Parsed(words: Array(w), prefixes: pre)) }
            words = []
        }
        while let c = scalars.first {
            switch c {
            case " ", "\t", "\r": scalars = scalars.dropFirst()
            case "#": scalars = scalars.dropFirst(scalars.count)
            case ";": scalars = scalars.dropFirst(); finish()
            case "\"": words.append(try quoted(&scalars))
            case "'":
                scalars = scalars.dropFirst()
                guard let end = scalars.firstIndex(of: "'") else { throw .invalidParameter }
                words.append(String(String.UnicodeScalarView(scalars[..<end])))
                scalars = scalars[(end + 1)...]
            default:
                let end = scalars.firstIndex { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == ";" } ?? scalars.endIndex
                words.append(String(String.UnicodeScalarView(scalars[..<end])))
                scalars = scalars[end...]
            }
        }
        finish()
        return commands
    }

    /// A `"..."` word with mpv's escapes: `\"`, `\\`, `\n`, `\t`, `\r`, `\e`, `\xHH`, `\uXXXX`.
    private static func quoted(_ s: inout ArraySlice<Unicode.Scalar>) throws(IPCError) -> String {
        s = s.dropFirst()
        var out = String.UnicodeScalarView()
        while let c = s.popFirst() {
            if c == "\"" { return String(out) }
            guard c == "\\" else { out.append(c); continue }
            guard let e = s.popFirst() else { throw .invalidParameter }
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "e": out.append("\u{1B}")
            case "\"", "\\", "'", "/": out.append(e)
            case "x", "u":
                let digits = e == "x" ? 2 : 4
                let hex = String(String.UnicodeScalarView(s.prefix(digits)))
                guard hex.count == digits, let v = UInt32(hex, radix: 16), let u = Unicode.Scalar(v) else {
                    throw .invalidParameter
                }
                out.append(u)
                s = s.dropFirst(digits)
            default: throw .invalidParameter
            }
        }
        throw .invalidParameter
    }
}
