import CFFmpeg
import MediaCore

/// A response's status line and the headers media downloads care about.
struct HTTPHead {
    let status: Int
    /// Lower-cased names; repeated headers joined with ", ".
    let headers: [String: String]

    /// Parses the head (status line and headers, up to and including the blank line).
    init?(_ bytes: [UInt8]) {
        // Split as bytes: to Swift's String, CR LF is one character, not an LF.
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { l -> Substring in
            Substring(String(decoding: l.last == 0x0D ? l.dropLast() : l, as: UTF8.self))
        }[...]
        guard let first = lines.popFirst(), first.hasPrefix("HTTP/") else { return nil }
        let parts = first.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let code = Int(parts[1]), (100...999).contains(code) else { return nil }
        status = code
        var h: [String: String] = [:]
        for l in lines where !l.isEmpty {
            guard let colon = l.firstIndex(of: ":") else { continue }
            let name = l[..<colon].lowercased()
            let value = l[l.index(after: colon)...].trimmingSpaces
            h[name] = h[name].map { $0 + ", " + value } ?? value
        }
        headers = h
    }

    /// Where the blank line after the headers ends, if it has arrived.
    static func endOfHead(_ b: [UInt8]) -> Int? {
        guard b.count >= 2 else { return nil }
        for i in 1..<b.count where b[i] == 0x0A {
            if b[i - 1] == 0x0A { return i + 1 }
            if i >= 3, b[i - 1] == 0x0D, b[i - 2] == 0x0A, b[i - 3] == 0x0D { return i + 1 }
        }
        return nil
    }

    var framing: HTTPConnection.Framing {
        if let te = headers["transfer-encoding"], te.lowercased().contains("chunked") { return .chunked }
        if let cl = headers["content-length"], let n = Int64(cl), n >= 0 { return .length(n) }
        return .close
    }

    var mimeType: String? { headers["content-type"] }

    /// A Content-Encoding other than identity: the body is not the file's bytes.
    var encoding: String? {
        guard let e = headers["content-encoding"]?.lowercased(), !e.isEmpty, e != "identity" else { return nil }
        return e
    }

    var acceptsRanges: Bool { status == 206 || headers["accept-ranges"]?.lowercased().contains("bytes") == true }

    /// "bytes START-END/TOTAL" of a 206: the first byte's offset and the total, if given.
    var contentRange: (start: Int64, total: Int64?)? {
        guard let v = headers["content-range"], v.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = v.dropFirst(6)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard let range = halves.first, let dash = range.firstIndex(of: "-"),
              let start = Int64(range[..<dash].trimmingSpaces) else { return nil }
        let total = halves.count == 2 ? Int64(halves[1].trimmingSpaces) : nil
        return (start, total)
    }
}
