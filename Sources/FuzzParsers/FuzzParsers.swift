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

/// Under libFuzzer (make fuzz) or replaying the corpus (make test): see `FuzzDriver`.
@main
struct FuzzMain {
    static func main() {
        FuzzDriver.main { FuzzParsers.run($0) }
    }
}
