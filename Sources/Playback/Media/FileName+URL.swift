/// `file://` URLs as file managers, browsers and media-key widgets write them: the path's
/// bytes %-escaped, so `caf%E9.png` names the Latin-1 file `caf\xE9.png` and must open it,
/// as mpv does, rather than turn into a `caf\u{FFFD}.png` that does not exist.
extension FileName {
    /// The path a `file://` URL names (`file:///p` or `file://localhost/p`), every escape
    /// back to its byte; nil for another host, a relative path or an escaped NUL, which no
    /// path on this machine has.
    public static func path(fromFileURL url: String) -> String? {
        guard url.utf8.count >= 7, url.utf8.prefix(7).map({ $0 | 0x20 }) == Array("file://".utf8) else { return nil }
        var rest = Substring(url).dropFirst(7)
        if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst(9) }
        guard rest.hasPrefix("/") else { return nil }
        let raw = percentDecodedBytes(bytes(String(rest)))
        guard !raw.contains(0) else { return nil }
        return decode(raw)
    }

    /// `file://` and the absolute path's bytes, each one that is not plain ASCII or would
    /// mean something in a URI written as %XX (RFC 8089 and 3986): what a file manager
    /// pastes or reads back as that very file, whatever bytes its name holds.
    public static func fileURL(absolutePath path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array("file://".utf8)
        for b in bytes(path) {
            let plain = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || "/-._~".utf8.contains(b)
            if plain { out.append(b) } else { out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `%XX` escapes back to their bytes; a `%` without two hex digits after it stays.
    public static func percentDecodedBytes(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hexValue(bytes[i + 1]),
               let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
