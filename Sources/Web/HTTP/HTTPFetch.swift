import CFFmpeg
import MediaCore

/// Opens a web address for reading from a byte offset: redirects followed (at most 8, and
/// only to web addresses), and every answer that is not media turned into one line a user
/// understands.
enum HTTPFetch {
    /// An answer whose body is the media (or the part of it from `start`).
    struct Opened {
        let connection: HTTPConnection
        /// Where the redirects led; a later Range request goes straight there.
        let url: String
        /// The offset of the body's first byte (0 unless a Range request was honoured).
        let start: Int64
        /// The whole file's size, when the server said it.
        let total: Int64?
        /// Whether the server takes Range requests, so a seek need not read up to its target.
        let seekable: Bool
    }

    static let maxRedirects = 8

    static func open(_ url: String, from offset: Int64, options: SourceOptions,
                     interrupt: AVIOInterruptCB) throws(AVError) -> Opened {
        guard var target = HTTPTarget(url) else {
            throw AVError(code: cff_averror(EINVAL), message: "not a web address")
        }
        var hops = 0
        while true {
            let c = try HTTPConnection.request(target, from: offset, options: options, interrupt: interrupt)
            let head = c.head
            if [301, 302, 303, 307, 308].contains(head.status) {
                c.close()
                hops += 1
                guard hops <= maxRedirects else {
                    throw AVError(code: cff_averror(EIO), message: "too many redirects (more than \(maxRedirects))")
                }
                guard let location = head.headers["location"], !location.isEmpty else {
                    throw AVError(code: cff_averror(EIO), message: "the server answered HTTP \(head.status) without saying where to")
                }
                target = try next(target.resolve(location))
                continue
            }
            if head.status == 416 {
                c.close()
                throw AVError(code: cff_averror(EIO), message: "the server has nothing from byte \(offset) on (HTTP 416)")
            }
            guard head.status == 200 || head.status == 206 else {
                c.close()
                throw AVError(code: cff_averror(EIO), message: NetworkErrors.statusText(head.status))
            }
            if let e = head.encoding {
                c.close()
                throw AVError(code: cff_averror_invaliddata, message: "the server sent the media \(e)-compressed "
                              + "(Content-Encoding: \(e)) though plain bytes were asked for; refused, since such a body can expand without limit")
            }
            if let mime = head.mimeType, mime.lowercased().hasPrefix("text/html") {
                c.close()
                throw AVError(code: cff_averror_invaliddata, message: "the server sent a web page (text/html), not media")
            }
            var start: Int64 = 0
            var total: Int64?
            if head.status == 206, let range = head.contentRange {
                start = range.start
                total = range.total
            } else if case .length(let n) = head.framing {
                total = n
            }
            return Opened(connection: c, url: target.url, start: start, total: total, seekable: head.acceptsRanges)
        }
    }

    /// The target of a redirect, refused unless it is a web address: a web page must not
    /// send the player to the user's own files.
    private static func next(_ url: String) throws(AVError) -> HTTPTarget {
        if let t = HTTPTarget(url) { return t }
        let shown = SourceOptions.redacted(url)
        if url.lowercased().hasPrefix("file:") {
            throw AVError(code: cff_averror(EACCES),
                          message: "the server redirected to a local file (\(shown)); refused, web media may not open local files")
        }
        throw AVError(code: cff_averror(EACCES),
                      message: "the server redirected to \(shown), which is not an http or https address; refused")
    }
}
