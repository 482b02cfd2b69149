import CFFmpeg

/// The one error type of the media libraries (Playback, Web, MediaCore): an FFmpeg (or PulseAudio) status code and a
/// message a user can read.
///
/// Expected states of the hot loop (EAGAIN, EOF) never become an `AVError`; they are the
/// enum results of `Demuxer.read` and `Decoder.receive`.
public struct AVError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The negative FFmpeg code (`AVERROR(...)`), or 0 for failures that have no code.
    public let code: Int32
    /// One line: what failed and why.
    public let message: String

    /// An error with this message, and FFmpeg's code when there is one.
    public init(code: Int32 = 0, message: String) {
        self.code = code
        self.message = message
    }

    /// Builds the message from the context and FFmpeg's own text for `code`.
    public init(code: Int32, _ context: String) {
        self.code = code
        self.message = "\(context): \(AVError.describe(code))"
    }

    /// The message.
    public var description: String { message }

    /// FFmpeg's text for an error code, with friendlier words for the ones users meet.
    public static func describe(_ code: Int32) -> String {
        if let http = httpText(code) { return http }  // "HTTP 404 Not Found", as a browser says it
        switch code {
        case cff_averror_invaliddata: return "not a media file, or damaged"
        case cff_averror(ENOENT): return "no such file"
        case cff_averror(EACCES): return "permission denied"
        case cff_averror(EISDIR): return "is a directory"
        case cff_averror(ETIMEDOUT): return "timed out"
        case cff_averror_exit: return "cancelled"
        default: break
        }
        var buf = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buf, buf.count)
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Throws an `AVError` for a negative FFmpeg status, passes anything else through.
@discardableResult
@inline(__always)
package func check(_ status: Int32, _ context: @autoclosure () -> String) throws(AVError) -> Int32 {
    if status < 0 { throw AVError(code: status, context()) }
    return status
}
