import Foundation
import Playback
import ThumbnailCache
import Viewer
import ViewerProgram
import Windowing

/// The targets with a selector of their own: bytes from files, caches, the X server and
/// IPC clients.
extension FuzzParsers {
    /// A file's bytes as a JPEG with EXIF: an orientation in range, a quarter turn.
    static func fuzzJPEGOrientation(_ bytes: [UInt8]) {
        let o = bytes.withUnsafeBytes { JPEGOrientation.orientation(ofJPEG: $0) }
        let r = bytes.withUnsafeBytes { JPEGOrientation.rotation(ofJPEG: $0) }
        precondition(o.map { (1...8).contains($0) } ?? true, "orientation \(String(describing: o)) out of range")
        precondition([0, 90, 180, 270].contains(r), "rotation \(r) is not a quarter turn")
    }

    /// A file's bytes as a camera JPEG: the embedded thumbnail it names lies wholly inside
    /// the bytes and starts as a JPEG does, whatever the EXIF offsets claim.
    static func fuzzEmbeddedThumbnail(_ bytes: [UInt8]) {
        guard let r = bytes.withUnsafeBytes({ EmbeddedThumbnail.range(inJPEG: $0) }) else { return }
        precondition(r.lowerBound >= 0 && r.upperBound <= bytes.count && r.count >= 4, "thumbnail \(r) outside \(bytes.count) bytes")
        precondition(Array(bytes[r.prefix(3)]) == [0xFF, 0xD8, 0xFF], "thumbnail at \(r) is not a JPEG")
    }

    /// A file's bytes as a photo, as the info panel and the sort by date taken read it:
    /// whatever the EXIF offsets and counts claim, the facts are the known ones, once each,
    /// in their order, none empty or longer than two texts of the longest kept, and a date
    /// taken is a finite time.
    static func fuzzPhotoMetadata(_ bytes: [UInt8]) {
        let labels = PhotoMetadata.describe(jpeg: bytes).map(\.label)
        let order = ["Taken", "Camera", "Lens", "Exposure", "Place"]
        precondition(labels == order.filter(labels.contains), "facts \(labels) out of order or repeated")
        for fact in PhotoMetadata.describe(jpeg: bytes) {
            precondition(!fact.value.isEmpty && fact.value.utf8.count <= 2 * 3 * 255 + 1, "\(fact.label) of \(fact.value.utf8.count) bytes")
        }
        if let t = PhotoMetadata.dateTaken(jpeg: bytes) { precondition(t.isFinite, "date taken \(t)") }
    }

    /// The root window's resource database text, as any program may set it; what it says
    /// about Xft.dpi is a usable resolution or a short quoted reason.
    static func fuzzResourceDPI(_ bytes: [UInt8]) {
        switch InterfaceScale.resourceDPI(in: decodeText(bytes)) {
        case .dpi(let d):
            precondition(d >= 24 && d <= 1200, "Xft.dpi \(d) accepted")
            precondition(InterfaceScale(dpi: d) != nil, "no scale for \(d) dpi")
        case .invalid(let shown):
            precondition(shown.count <= 40, "the quoted value is not bounded")
        case .unset:
            break
        }
    }

    /// A stored track preview or keyframe index, as read back from the cache; what decodes
    /// must encode back to the same bytes.
    /// A container worker's answers (a description, a packet) as a subverted worker could
    /// send them: refused, or taken within their bounds.
    static func fuzzContainerAnswer(_ bytes: [UInt8]) {
        WorkerAnswerChecks.check(bytes)
    }

    static func fuzzPreviewFile(_ bytes: [UInt8]) {
        if let f = PreviewFile.decode(bytes) {
            precondition(f.width >= 2 && f.width <= 640 && f.height >= 2 && f.height <= 1280, "preview size out of bounds")
            precondition(PreviewFile.encode(f) == bytes, "a stored preview does not round-trip")
        }
        if let times = PreviewFile.decodeIndex(bytes) {
            precondition(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "keyframe index out of order")
        }
    }

    /// An ASS event's text bounded: no costly tag keeps a value over its bound, as C's
    /// strtod (and libass) reads the number, and bounding never grows the text.
    static func fuzzASSEvent(_ bytes: [UInt8]) {
        let text = decodeText(bytes)
        let bounded = SubtitleProbe.boundedEvent(text)
        var rest = Substring(bounded)
        while let slash = rest.firstIndex(of: "\\") {
            rest = rest[rest.index(after: slash)...]
            let name = String(rest.prefix { $0.isASCII && $0.isLetter })
            rest = rest.dropFirst(name.count)
            // What C's strtod reads there, as libass reads the argument.
            let head = String(rest.drop { $0 == " " || $0 == "\t" || $0 == "(" }.prefix(40))
            guard let limit = SubtitleProbe.tagLimits[name], let first = head.first, "+-.0123456789".contains(first) else { continue }
            var end: UnsafeMutablePointer<CChar>?
            let v = head.withCString { strtod($0, &end) }
            let bound = name == "fs" && (first == "+" || first == "-") ? SubtitleProbe.relativeFontStep : limit
            precondition(!v.isNaN && abs(v) <= bound, "\\\(name)\(head) kept in \(bounded)")
        }
        precondition(bounded.count <= text.count, "bounding grew the event")
    }

    /// What a thumbnail's text chunks say, from any bytes; and `Thumb::URI` written into a
    /// PNG reads back unchanged.
    static func fuzzPNGText(_ bytes: [UInt8]) {
        let chunks = PNGText.read(bytes)
        precondition(chunks.map { $0.count <= 1000 } ?? true, "more chunks than the limit")
        let uri = ThumbnailStore.uri(forPath: "/" + String(decoding: bytes.prefix(64), as: UTF8.self))
        precondition(uri.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "a URI with unescaped bytes: \(uri)")
        guard let png = PNGEncoder.encodeRGBA([0, 0, 0, 255], width: 1, height: 1, text: [("Thumb::URI", uri)]) else {
            preconditionFailure("a URI could not be written into a PNG")
        }
        precondition(PNGText.value("Thumb::URI", in: png) == uri, "Thumb::URI does not read back")
    }

    /// Whatever a client sends, lines stay bounded and every answer is one line of JSON
    /// that echoes the request id.
    static func fuzzIPC(_ bytes: [UInt8]) {
        var connection = IPCConnection()
        for line in connection.take(bytes) {
            guard case .text(let text) = line else { continue }
            precondition(text.utf8.count <= IPCRequest.maxLineBytes, "an overlong line was kept")
            let reply: String
            do {
                guard let request = try IPCRequest.parse(text) else { continue }
                reply = IPCRequest.reply(requestID: request.requestID, data: .string(text))
            } catch {
                reply = IPCRequest.reply(requestID: error.requestID, error: error.error)
            }
            precondition(reply.hasSuffix("\n") && reply.dropLast().allSatisfy { $0 != "\n" }, "a reply is not one line")
            let object = try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]
            precondition(object?["request_id"] is Int && object?["error"] is String, "a reply is not mpv's shape: \(reply)")
        }
    }

    /// Whatever a resume file holds, what is read is well formed, and written back it
    /// reads back whole and settles (positions are kept to the millisecond).
    static func fuzzResume(_ bytes: [UInt8]) {
        let read = ResumeStore.entries(in: bytes)
        for e in read {
            precondition(e.key.utf8.count == 64 && e.key.allSatisfy(\.isHexDigit), "a bad key was kept: \(e.key)")
            precondition(e.position.isFinite && e.position >= 0, "a bad position was kept: \(e.position)")
        }
        let again = ResumeStore.entries(in: Array(ResumeStore.text(read).utf8))
        precondition(again.count == read.count, "written back, \(read.count) entries read as \(again.count)")
        let settled = ResumeStore.entries(in: Array(ResumeStore.text(again).utf8))
        precondition(settled == again, "a written resume file does not read back the same")
    }
}
