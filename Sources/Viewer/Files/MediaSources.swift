import MediaCore
import Playback

/// Paths and links out of text a user hands over by dropping or pasting: a `text/uri-list`
/// from a file manager or browser, or plain text with one path or URL a line.
///
/// Playable are files (`/path`, `file://` URIs) and `http(s)://` links. Anything else (other
/// schemes, words, binary junk) is not guessed at: it is counted and named, so the user
/// gets one line saying what was left out.
public struct MediaSources: Equatable, Sendable {
    /// What can be played, in the order given.
    public var sources: [String] = []
    /// How many lines were left out.
    public var skipped = 0
    /// The first line left out, shortened, to name in the message.
    public var firstSkipped: String?

    /// Reads `text`; `isURIList` allows `#` comment lines, as that format has them.
    public init(text: String, isURIList: Bool) {
        if text.utf8.contains(0) || text.unicodeScalars.contains("\u{FFFD}") {
            // Not text at all: never turned into hundreds of bogus file names.
            skipped = 1
            firstSkipped = "binary data"
            return
        }
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = raw.trimmingWhitespace()
            if line.isEmpty || (isURIList && line.hasPrefix("#")) { continue }
            if let s = Self.source(line) {
                sources.append(s)
            } else {
                skipped += 1
                if firstSkipped == nil { firstSkipped = TextFormat.quotable(line) }
            }
        }
    }

    /// One line for the user about what was left out; nil when nothing was.
    public func problem(from origin: String) -> String? {
        guard skipped > 0 else { return nil }
        let what = skipped == 1 ? "1 item" : "\(skipped) items"
        let all = sources.isEmpty ? "nothing to play in the \(origin)" : "\(what) of the \(origin) skipped"
        return "\(all): not a file or an http(s) link ('\(firstSkipped ?? "")')"
    }

    /// A playable source for one line, or nil.
    static func source(_ line: String) -> String? {
        let lower = line.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return line }
        // file://localhost/path and file:///path; another host is not this machine.
        if lower.hasPrefix("file://") { return FileName.path(fromFileURL: line) }
        if line.hasPrefix("/") { return line }
        return nil
    }
}
