import Foundation
import Playback
import Viewer
import ViewerProgram
import Web
import Windowing

/// The targets chosen by remainder: the command line, input.conf, commands, key names,
/// JSON escaping, cache names and the thumbnail's layout arithmetic.
extension FuzzParsers {
    /// Command lines: arguments separated by NUL, as exec gives them.
    static func fuzzCommandLine(_ bytes: [UInt8]) {
        let args = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        do {
            let o = try ProgramOptions.parse(args)
            precondition(o.scripts.imageDuration > 0 && o.minimizing.widthRatio > 0, "accepted an invalid value")
        } catch {
            let line = error.description
            precondition(!line.isEmpty && !line.contains("\n"), "an option error must be one line")
        }
    }

    /// An input.conf: every problem is one line naming the file, and what the table lists
    /// parses back to the same table.
    static func fuzzInputConf(_ bytes: [UInt8]) {
        let parsed = InputBindings.parse(decodeText(bytes), source: "fuzz.conf")
        for p in parsed.problems { precondition(p.hasPrefix("fuzz.conf:") && !p.contains("\n"), "bad problem line: \(p)") }
        let again = InputBindings.parse(parsed.bindings.listing(), source: "listing")
        precondition(again.problems.isEmpty && again.bindings.commands == parsed.bindings.commands,
                     "listing does not round-trip")
    }

    /// A command as a binding or the socket gives it: what parses prints back to itself.
    static func fuzzPlayerCommand(_ bytes: [UInt8]) {
        if let c = try? PlayerCommand.parse(decodeText(bytes)) {
            precondition((try? PlayerCommand.parse(c.description)) == c, "command text does not round-trip")
        }
    }

    /// A key name: normalizing twice changes nothing.
    static func fuzzKeyName(_ bytes: [UInt8]) {
        if let k = KeyName.normalize(decodeText(bytes)) { precondition(KeyName.normalize(k) == k, "normalize is not idempotent") }
    }

    /// Any text escaped as a JSON string reads back as itself.
    static func fuzzJSONString(_ bytes: [UInt8]) {
        let text = decodeText(bytes)
        let json = "{\"v\":" + JSONValue.string(text).json + "}"
        let obj = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        precondition(obj?["v"] == text, "JSON string escaping does not round-trip")
    }

    /// Cache names come from a hash, never from the URL's text: nothing to traverse.
    static func fuzzCacheName(_ bytes: [UInt8]) {
        let text = decodeText(bytes)
        let name = (SHA256.hex(text) + MediaCache.fileExtension(text))
        precondition(name.count >= 64 && !name.contains("/") && !name.contains(".."), "unsafe cache name \(name)")
        precondition(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }, "odd cache name \(name)")
    }

    /// Layout arithmetic from arbitrary numbers stays on screen and in range.
    static func fuzzThumbnailLayout(_ bytes: [UInt8]) {
        var v = bytes.makeIterator()
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

    /// The thumbnail's remembered places (`$XDG_STATE_HOME/mediaview/thumbnail-places`, which
    /// anything running as the user can write): whatever a line says, a place taken fits
    /// X's 16-bit coordinates and a window's size, and its centre and far edges are numbers
    /// the program can compute (one near Int.max once crashed the next minimize).
    static func fuzzThumbnailPlaces(_ bytes: [UInt8]) {
        let lines = bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        let layouts = Set(lines.compactMap { $0.split(separator: " ").first.map(String.init) } + ["1280x720+0+0"])
        for layout in layouts {
            guard let r = ThumbnailMemory.frame(in: lines, for: layout) else { continue }
            precondition(ThumbnailMemory.coordinates.contains(r.x) && ThumbnailMemory.coordinates.contains(r.y),
                         "a place X cannot hold was taken: \(r)")
            precondition((1...16384).contains(r.width) && (1...16384).contains(r.height), "a size no window has was taken: \(r)")
            precondition(r.x + r.width / 2 > r.x - 1 && r.maxX >= r.x && r.maxY >= r.y, "the place's geometry does not add up: \(r)")
        }
    }
}
