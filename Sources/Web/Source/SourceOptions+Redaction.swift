import MediaCore

/// Addresses as they may be shown: without passwords or access tokens.
///
/// People paste signed links (`?token=`, `?sig=`, `access_token=`) and `user:password@`
/// addresses; what they paste ends up in terminal scroll-back, shared event logs and
/// screenshots of the window title. Every place that shows an address shows this form; the
/// full address is used only to fetch and to hash the cache name.
extension SourceOptions {
    /// `url` with its user information and secret-looking query or fragment values
    /// replaced by `***`. Anything that is not a URL with a scheme comes back unchanged.
    public static func redacted(_ url: String) -> String {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return url }
        let authorityStart = url.index(colon, offsetBy: 3)
        var out = String(url[..<authorityStart])
        var rest = url[authorityStart...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            out += "***@"
            out += authority[authority.index(after: at)...]
        } else {
            out += authority
        }
        rest = rest[authorityEnd...]
        // Path, then the query and the fragment, each a list of name=value pairs.
        let queryStart = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        out += rest[..<queryStart]
        var tail = rest[queryStart...]
        while let mark = tail.first {
            let body = tail.dropFirst()
            let end = mark == "?" ? (body.firstIndex(of: "#") ?? body.endIndex) : body.endIndex
            out.append(mark)
            out += redactedPairs(body[..<end])
            tail = body[end...]
        }
        return out
    }

    /// `a=1&token=2` → `a=1&token=***`.
    private static func redactedPairs(_ text: Substring) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let eq = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<eq]
            return isSecret(name) ? name + "=***" : String(pair)
        }.joined(separator: "&")
    }

    /// Names of query parameters that carry credentials, as the big clouds and OAuth spell
    /// them (`X-Amz-Signature`, `access_token`, `api_key`, `sig`, ...).
    static func isSecret(_ name: Substring) -> Bool {
        let n = (name.removingPercentEncodingLossy).lowercased()
        let exact: Set<String> = ["key", "sig", "auth", "code", "pass", "pwd", "sid", "session", "jwt", "hmac",
                                  "credential", "authorization"]
        if exact.contains(n) { return true }
        return ["token", "secret", "signature", "password", "passwd", "apikey", "api_key", "api-key",
                "credential", "sessionid", "session_id", "private"].contains { n.contains($0) }
    }
}

private extension Substring {
    /// `%5F` style escapes decoded where they are valid; enough to see a parameter's name.
    var removingPercentEncodingLossy: String { TextFormat.percentDecoded(String(self)) }
}

extension SourceOptions {
    /// The last path component of a path, or the whole (redacted) URL, for messages.
    package static func displayName(_ url: String) -> String {
        let trimmed = url.split(separator: "?").first.map(String.init) ?? url
        if SourceOptions.isNetwork(trimmed) { return SourceOptions.redacted(url) }
        return trimmed.split(separator: "/").last.map(String.init) ?? url
    }
}
