import CFFmpeg

/// HTTP statuses FFmpeg returned as error codes, in the words a browser uses.
extension AVError {
    /// FFERRTAG(0xF8, a, b, c): how FFmpeg spells HTTP statuses as error codes.
    private static func tag(_ a: Character, _ b: Character, _ c: Character) -> Int32 {
        let v = UInt32(0xF8) | UInt32(a.asciiValue!) << 8 | UInt32(b.asciiValue!) << 16 | UInt32(c.asciiValue!) << 24
        return -Int32(bitPattern: v)
    }

    private static let httpCodes: [(Int32, String)] = [
        (tag("4", "0", "0"), "HTTP 400 Bad Request"),
        (tag("4", "0", "1"), "HTTP 401 Unauthorized"),
        (tag("4", "0", "3"), "HTTP 403 Forbidden"),
        (tag("4", "0", "4"), "HTTP 404 Not Found"),
        (tag("4", "X", "X"), "HTTP client error (4xx)"),
        (tag("5", "X", "X"), "HTTP server error (5xx)"),
    ]

    /// The text for an HTTP status code FFmpeg returned, if `code` is one.
    package static func httpText(_ code: Int32) -> String? {
        httpCodes.first { $0.0 == code }?.1
    }
}
