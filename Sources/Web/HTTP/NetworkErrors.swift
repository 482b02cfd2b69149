import CFFmpeg
import MediaCore

/// One-line reasons for web failures, in a user's words rather than FFmpeg's.
///
/// FFmpeg reports a broken download with a handful of codes (EIO covers a redirect loop,
/// a failed certificate check and a connection closed early alike), so the reason is
/// worked out from the code plus what is known about the transfer.
enum NetworkErrors {
    /// A status that is not media, in words: "HTTP 404 Not Found", "HTTP 503 server error".
    static func statusText(_ status: Int) -> String {
        let names = [400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
                     429: "Too Many Requests"]
        if let n = names[status] { return "HTTP \(status) \(n)" }
        switch status {
        case 400..<500: return "HTTP \(status) client error"
        case 500..<600: return "HTTP \(status) server error"
        default: return "HTTP \(status), an answer that is not media"
        }
    }

    /// Why opening `url` failed.
    static func openFailure(_ code: Int32, url: String, options: SourceOptions, elapsed: Double) -> String {
        if let h = AVError.httpText(code) { return h }
        if code == cff_averror_exit || code == cff_averror(ETIMEDOUT) {
            return "no answer from the server (timed out after \(seconds(options.effectiveTimeout)))"
        }
        if code == cff_averror(ECONNREFUSED) { return "connection refused" }
        if code == cff_averror(ECONNRESET) { return "connection reset by the server" }
        if code == cff_averror(EIO) {
            if url.lowercased().hasPrefix("https://") && certificateIsTheProblem(url, options: options) {
                return "TLS certificate not trusted (verification against \(options.caFile) failed)"
            }
            // FFmpeg follows at most 8 redirects and then says EIO.
            return "too many redirects, or the connection broke before an answer"
        }
        return AVError.describe(code)
    }

    /// Why a read in the middle of a download failed.
    static func readFailure(_ code: Int32, position: Int64, size: Int64, elapsed: Double, timeout: Double) -> String {
        if code == cff_averror_exit || code == cff_averror(ETIMEDOUT) {
            return "server stopped sending (timed out after \(seconds(timeout)))"
        }
        let progress = size > 0 ? "got \(position) of the \(size) bytes announced" : "after \(position) bytes"
        if code == cff_averror(ECONNRESET) { return "connection reset by the server: \(progress)" }
        if code == cff_averror(EIO) || code == cff_averror(EPIPE) {
            return "connection reset or closed early: \(progress)"
        }
        return "\(AVError.describe(code)): \(progress)"
    }

    /// Whether the same URL opens when the certificate is not checked: then the check was
    /// what failed. Only asked after a failure, and the answer's body is never read.
    private static func certificateIsTheProblem(_ url: String, options: SourceOptions) -> Bool {
        var dict: OpaquePointer? = nil
        defer { av_dict_free(&dict) }
        for (k, v) in options.formatOptions(for: url) where k != "tls_verify" { av_dict_set(&dict, k, v, 0) }
        av_dict_set(&dict, "tls_verify", "0", 0)
        av_dict_set(&dict, "rw_timeout", String(Int64(min(options.effectiveTimeout, 5) * 1e6)), 0)
        var pb: UnsafeMutablePointer<AVIOContext>?
        guard avio_open2(&pb, url, AVIO_FLAG_READ, nil, &dict) >= 0 else { return false }
        avio_closep(&pb)
        return true
    }

    private static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }
}
