import Foundation
import Glibc
import FuzzDriver
import MPRIS
import Playback
import Viewer
import ViewerProgram
import Windowing

/// Feeds one input to the parser its first byte selects, and checks the invariants each
/// must keep whatever it is given. A broken invariant traps, which is what the fuzzer and
/// the corpus replay look for.
enum FuzzParsers {
    /// A parser's check, given the input's bytes after the selector.
    typealias Target = @Sendable ([UInt8]) -> Void

    /// Selectors from 0xF1 up name a target each. They lie outside what the first seven
    /// targets' corpus entries start with, so those entries keep their targets.
    static let targetsBySelector: [UInt8: Target] = [
        0xF1: fuzzContainerAnswer,
        0xF2: fuzzThumbnailPlaces,
        0xF3: fuzzPhotoMetadata,
        0xF4: fuzzEmbeddedThumbnail,
        0xF5: fuzzTrashInfo,
        0xF6: fuzzClipboard,
        0xF7: fuzzDropList,
        0xF8: fuzzBusCall,
        0xF9: fuzzResume,
        0xFA: fuzzASSEvent,
        0xFB: fuzzPNGText,
        0xFC: fuzzResourceDPI,
        0xFD: fuzzPreviewFile,
        0xFE: fuzzIPC,
        0xFF: fuzzJPEGOrientation,
    ]

    /// Every other selector picks one of these by its remainder modulo their count; the
    /// order is the corpus's, so it must not change.
    static let targetsByRemainder: [Target] = [
        fuzzCommandLine,
        fuzzInputConf,
        fuzzPlayerCommand,
        fuzzKeyName,
        fuzzJSONString,
        fuzzCacheName,
        fuzzThumbnailLayout,
    ]

    /// Runs the target `data`'s first byte selects on the rest.
    static func run(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let rest = Array(data.dropFirst())
        let target = targetsBySelector[selector]
            ?? targetsByRemainder[Int(selector) % targetsByRemainder.count]
        target(rest)
    }

    /// The bytes as text, as a user or a file would give it (bad UTF-8 repaired).
    static func decodeText(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// Under libFuzzer (make fuzz) or replaying the corpus (make test): see `FuzzDriver`.
///
/// `FUZZ_TARGET=f8` (a selector in hex) holds libFuzzer on one target: every input's
/// first byte is taken as that selector. Left to itself, libFuzzer mutates the selector
/// too and spreads its time over all targets, so a new one would get a sliver of a run.
@main
struct FuzzMain {
    static func main() {
        let pinned = getenv("FUZZ_TARGET").flatMap { UInt8(String(cString: $0), radix: 16) }
        FuzzDriver.main { data in
            guard let pinned, !data.isEmpty else { return FuzzParsers.run(data) }
            FuzzParsers.run([pinned] + data.dropFirst())
        }
    }
}
