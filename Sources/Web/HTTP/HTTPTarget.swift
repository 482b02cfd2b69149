import CFFmpeg
import MediaCore

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
