import CFFmpeg

/// Where a web address's request goes: the socket FFmpeg opens, the request line's path,
/// the Host header and Basic credentials from `user:password@`.
struct HTTPTarget {
    let url: String
    let secure: Bool
    let host: String
    let port: Int
    let path: String
    let authorization: String?

    /// Nil for anything but an http or https URL with a host.
    init?(_ url: String) {
        let lower = url.lowercased()
        let schemeLength: Int
        if lower.hasPrefix("http://") { secure = false; schemeLength = 7 }
        else if lower.hasPrefix("https://") { secure = true; schemeLength = 8 }
        else { return nil }
        self.url = url
        var rest = Substring(url.dropFirst(schemeLength))
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let tail = rest[authorityEnd...]
        path = tail.isEmpty ? "/" : (tail.first == "?" ? "/" + tail : String(tail))
        var credentials: String?
        if let at = authority.lastIndex(of: "@") {
            credentials = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        // [v6]:port, host:port, host
        var hostPart = authority
        var portText: Substring = ""
        if authority.first == "[", let close = authority.firstIndex(of: "]") {
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.first == ":" { portText = after.dropFirst() }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { return nil }
        host = String(hostPart)
        if portText.isEmpty { port = secure ? 443 : 80 } else {
            guard let p = Int(portText), (1...65535).contains(p) else { return nil }
            port = p
        }
        authorization = credentials.map { HTTPTarget.base64(Array(TextFormat.percentDecoded($0).utf8)) }
    }

    /// What FFmpeg opens: the tls protocol checks the certificate against `host`.
    var socketURL: String { "\(secure ? "tls" : "tcp")://\(host):\(port)" }

    var hostHeader: String { port == (secure ? 443 : 80) ? host : "\(host):\(port)" }

    /// `location` (absolute, scheme-relative, absolute-path or relative) against this URL.
    func resolve(_ location: String) -> String {
        if let colon = location.firstIndex(of: ":"), location[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
           !location[..<colon].isEmpty {
            return location
        }
        let origin = "\(secure ? "https" : "http")://\(hostHeader)"
        if location.hasPrefix("//") { return (secure ? "https:" : "http:") + location }
        if location.hasPrefix("/") { return origin + location }
        let base = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let dir = base.lastIndex(of: "/").map { base[...$0] } ?? "/"
        return origin + dir + location
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        let size = (bytes.count + 2) / 3 * 4 + 1
        var out = [CChar](repeating: 0, count: size)
        _ = av_base64_encode(&out, Int32(size), bytes, Int32(bytes.count))
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

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
