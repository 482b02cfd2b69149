import MPRIS
import Playback
import SessionBus
import Viewer
import MediaCore

/// The targets for what other programs hand the player: calls on the session bus, drops,
/// pastes, and the `.trashinfo` a file manager reads back.
extension FuzzParsers {
    /// A bus call's bytes as the socket gives them: read by libdbus, its arguments read by
    /// the player's own reading, and each checked as MPRIS would act on it. Bytes libdbus
    /// refuses are taken as the text of a string argument instead.
    static func fuzzBusCall(_ bytes: [UInt8]) {
        guard let call = BusMessage.demarshal(bytes) else {
            let text = decodeText(bytes)
            checkOpenURI(text)
            for property in ["LoopStatus", "Volume", "Rate", text] { checkSetting(property, .string(text), call: nil) }
            // The same bytes as the numbers Seek, SetPosition and Set take.
            let padded = bytes + [UInt8](repeating: 0, count: 8)
            checkMicroseconds(padded.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) })
            let number = padded.withUnsafeBytes { $0.loadUnaligned(as: Double.self) }
            for property in ["Volume", "Rate"] { checkSetting(property, .double(number), call: nil) }
            return
        }
        _ = (call.interface, call.member, call.path, call.signature)
        guard let args = call.arguments else { return }
        if call.signature == "ssv", let property = args[1].text {
            checkSetting(property, args[2].unwrapped ?? args[2], call: call)
        }
        for arg in args {
            switch arg.unwrapped ?? arg {
            case .string(let s), .objectPath(let s):
                checkOpenURI(s)
            case .int64(let micro):
                checkMicroseconds(micro)
            case let value:
                for property in ["Volume", "Rate", "LoopStatus"] { checkSetting(property, value, call: call) }
            }
        }
    }

    /// Seek's offset is a finite number of seconds; SetPosition lands inside the media.
    static func checkMicroseconds(_ micro: Int64) {
        precondition(MPRISArguments.seconds(microseconds: micro).isFinite, "a seek of \(micro) µs is not finite")
        if let at = MPRISArguments.position(microseconds: micro, length: 3_600_000_000) {
            precondition(at >= 0 && at <= 3600, "SetPosition \(micro) µs lands at \(at) s")
        }
    }

    /// OpenUri's address: a local path without NUL or an http(s) link, or a refusal whose
    /// quoting keeps the line one line.
    static func checkOpenURI(_ uri: String) {
        if let source = MPRISArguments.source(openURI: uri) {
            precondition(!FileName.bytes(source).contains(0), "OpenUri made a path with a NUL")
            let lower = source.lowercased()
            precondition(source.hasPrefix("/") || lower.hasPrefix("http://") || lower.hasPrefix("https://"),
                         "OpenUri took '\(source)'")
        }
        checkOneLine(TextFormat.quotable(uri))
    }

    /// What Set does with a value: within the player's range, or a one-line refusal that
    /// libdbus can send back.
    static func checkSetting(_ property: String, _ value: BusValue, call: BusMessage?) {
        switch MPRISArguments.setting(property, value) {
        case .success(.volume(let v)): precondition(v >= 0 && v <= 1, "volume \(v) set")
        case .success(.rate(let r)): precondition(r >= MPRISArguments.rates.min && r <= MPRISArguments.rates.max, "rate \(r) set")
        case .success(.pause), .success(.loop): break
        case .failure(let refusal):
            checkOneLine(refusal.text)
            if let call { precondition(call.error(refusal.name, refusal.text) != nil, "libdbus cannot send the refusal") }
        }
    }

    /// A drop's data as the window reads it (bytes as UTF-8): what is queued is a path or
    /// a link, and what is left out is said in one line.
    static func fuzzDropList(_ bytes: [UInt8]) {
        checkSources(String(decoding: bytes, as: UTF8.self), isURIList: true, origin: "drop")
    }

    /// The clipboard's text for a paste; and any path the viewer copies as a `file://` URI
    /// pastes back as that very path, whatever bytes its name holds.
    static func fuzzClipboard(_ bytes: [UInt8]) {
        checkSources(String(decoding: bytes, as: UTF8.self), isURIList: false, origin: "clipboard")
        let name = bytes.filter { $0 != 0 && $0 != UInt8(ascii: "/") }
        let path = "/" + FileName.decode(name)
        let uri = FileName.fileURL(absolutePath: path)
        precondition(uri.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "a copied URI with unescaped bytes: \(uri)")
        let pasted = MediaSources(text: uri, isURIList: true)
        precondition(pasted.sources.count == 1 && FileName.bytes(pasted.sources[0]) == FileName.bytes(path),
                     "\(uri) pastes back as \(pasted.sources), not \(path)")
    }

    static func checkSources(_ text: String, isURIList: Bool, origin: String) {
        let found = MediaSources(text: text, isURIList: isURIList)
        for s in found.sources {
            precondition(!FileName.bytes(s).contains(0), "a source with a NUL")
            let lower = s.lowercased()
            precondition(s.hasPrefix("/") || lower.hasPrefix("http://") || lower.hasPrefix("https://"), "queued '\(s)'")
        }
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).count
        precondition(found.sources.count + found.skipped <= max(lines, 1), "more items than lines")
        let problem = found.problem(from: origin)
        precondition((problem == nil) == (found.skipped == 0), "skipped \(found.skipped), said \(problem ?? "nothing")")
        if let problem {
            checkOneLine(problem)
            precondition(problem.count <= 160, "an overlong line: \(problem)")
        }
    }

    /// The `.trashinfo` written for a file of any name: ASCII, three lines, and its Path
    /// reads back, as a file manager decodes it, to the name's very bytes.
    static func fuzzTrashInfo(_ bytes: [UInt8]) {
        let path = "/" + FileName.decode(bytes.filter { $0 != 0 })
        let text = Trash.infoText(recordedPath: path, deletionDate: "2026-01-01T00:00:00")
        precondition(text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F || $0 == 0x0A }, "a .trashinfo with raw bytes")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        precondition(lines.count == 4 && lines[0] == "[Trash Info]" && lines[1].hasPrefix("Path=")
                     && lines[2].hasPrefix("DeletionDate=") && lines[3].isEmpty, "a .trashinfo of another shape: \(text)")
        let recorded = FileName.percentDecodedBytes(Array(lines[1].dropFirst(5).utf8))
        precondition(recorded == FileName.bytes(path), "Path= reads back as another name: \(lines[1])")
    }

    /// One line, and nothing in it that drives a terminal.
    static func checkOneLine(_ text: String) {
        precondition(!text.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" },
                     "a message with a line break or control character: \(text.debugDescription)")
    }
}
