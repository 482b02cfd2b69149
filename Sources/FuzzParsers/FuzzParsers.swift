import Foundation
import FuzzDriver
import Playback
import Viewer
import ViewerProgram
import Windowing

/// Feeds one input to the parser its first byte selects, and checks the invariants each
/// must keep whatever it is given. A broken invariant traps, which is what the fuzzer and
/// the corpus replay look for.
enum FuzzParsers {
    static func run(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let rest = Array(data.dropFirst())
        let text = String(decoding: rest, as: UTF8.self)
        // 0xFF: a file's bytes as a JPEG with EXIF (a selector outside the older seven's
        // corpus, so those entries keep their targets).
        if selector == 0xFF {
            let o = rest.withUnsafeBytes { JPEGOrientation.orientation(ofJPEG: $0) }
            let r = rest.withUnsafeBytes { JPEGOrientation.rotation(ofJPEG: $0) }
            precondition(o.map { (1...8).contains($0) } ?? true, "orientation \(String(describing: o)) out of range")
            precondition([0, 90, 180, 270].contains(r), "rotation \(r) is not a quarter turn")
            return
        }
        // 0xFB: a thumbnail cache file: its text chunks read without trapping, and a text
        // put into a PNG reads back the same.
        if selector == 0xFB {
            fuzzPNGText(rest)
            return
        }
        // 0xFC: the root window's resource database text, as any program may set it; what
        // it says about Xft.dpi is a usable resolution or a short quoted reason.
        if selector == 0xFC {
            switch InterfaceScale.resourceDPI(in: text) {
            case .dpi(let d):
                precondition(d >= 24 && d <= 1200, "Xft.dpi \(d) accepted")
                precondition(InterfaceScale(dpi: d) != nil, "no scale for \(d) dpi")
            case .invalid(let shown):
                precondition(shown.count <= 40, "the quoted value is not bounded")
            case .unset:
                break
            }
            return
        }
        // 0xFD: a stored track preview or keyframe index, as read back from the cache; what
        // decodes must encode back to the same bytes.
        if selector == 0xFD {
            if let f = PreviewFile.decode(rest) {
                precondition(f.width >= 2 && f.width <= 640 && f.height >= 2 && f.height <= 1280, "preview size out of bounds")
                precondition(PreviewFile.encode(f) == rest, "a stored preview does not round-trip")
            }
            if let times = PreviewFile.decodeIndex(rest) {
                precondition(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "keyframe index out of order")
            }
            return
        }
        // 0xFA: an ASS event's text, whose font sizes are bounded before libass sees it.
        if selector == 0xFA {
            let bounded = SubtitleProbe.boundedEvent(text)
            var rest = Substring(bounded)
            while let r = rest.firstRange(of: "\\fs") {
                rest = rest[r.upperBound...]
                if rest.hasPrefix("cx") || rest.hasPrefix("cy") { rest = rest.dropFirst(2) }
                let digits = rest.prefix { $0.isNumber || $0 == "." }
                precondition(Double(digits).map { $0 <= Double(SubtitleProbe.maxFontSize) } ?? true,
                             "font size \(digits) kept in \(bounded)")
            }
            precondition(bounded.count <= text.count, "bounding grew the event")
            return
        }
        // 0xF9: a resume file, as anything may have left it in the state folder.
        if selector == 0xF9 {
            fuzzResume(rest)
            return
        }
        // 0xFE: bytes from an IPC client, framed into lines and parsed as requests.
        if selector == 0xFE {
            fuzzIPC(rest)
            return
        }
        switch selector % 7 {
        case 0:
            // Command lines: arguments separated by NUL, as exec gives them.
            let args = rest.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            do {
                let o = try ProgramOptions.parse(args)
                precondition(o.imageDuration > 0 && o.minimizedWidthRatio > 0, "accepted an invalid value")
            } catch {
                let line = error.description
                precondition(!line.isEmpty && !line.contains("\n"), "an option error must be one line")
            }
        case 1:
            let parsed = InputBindings.parse(text, source: "fuzz.conf")
            for p in parsed.problems { precondition(p.hasPrefix("fuzz.conf:") && !p.contains("\n"), "bad problem line: \(p)") }
            // What the table lists must parse back to the same table.
            let again = InputBindings.parse(parsed.bindings.listing(), source: "listing")
            precondition(again.problems.isEmpty && again.bindings.commands == parsed.bindings.commands,
                         "listing does not round-trip")
        case 2:
            if let c = try? PlayerCommand.parse(text) {
                precondition((try? PlayerCommand.parse(c.description)) == c, "command text does not round-trip")
            }
        case 3:
            if let k = KeyName.normalize(text) { precondition(KeyName.normalize(k) == k, "normalize is not idempotent") }
        case 4:
            let json = "{\"v\":" + JSONValue.string(text).json + "}"
            let obj = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
            precondition(obj?["v"] == text, "JSON string escaping does not round-trip")
        case 5:
            // Cache names come from a hash, never from the URL's text: nothing to traverse.
            let name = (SHA256.hex(text) + MediaCache.fileExtension(text))
            precondition(name.count >= 64 && !name.contains("/") && !name.contains(".."), "unsafe cache name \(name)")
            precondition(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }, "odd cache name \(name)")
        default:
            // Layout arithmetic from arbitrary numbers stays on screen and in range.
            var v = rest.makeIterator()
            func num() -> Int { Int(v.next() ?? 1) << 4 | Int(v.next() ?? 0) }
            let w = max(1, num()), h = max(1, num())
            let l = ThumbnailLayout(screenWidth: w, screenHeight: h, widthRatio: Double(num()) / 500,
                                    aspectRatio: Double(num()) / 500, bottomBuffer: num() / 8)
            let m = l.minimizedFrame
            precondition(m.width >= 1 || w < 10, "empty thumbnail")
            precondition(m.maxX <= w, "thumbnail leaves the screen on the right")
            for p in stride(from: 0.0, through: 1.0, by: 0.25) {
                let f = l.frame(progress: p)
                precondition(f.width >= 0 && f.height >= 0, "negative frame")
            }
        }
    }
}

extension FuzzParsers {
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
}

/// Under libFuzzer (make fuzz) or replaying the corpus (make test): see `FuzzDriver`.
@main
struct FuzzMain {
    static func main() {
        FuzzDriver.main { FuzzParsers.run($0) }
    }
}
