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
