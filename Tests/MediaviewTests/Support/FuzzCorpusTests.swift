import Foundation
import Testing
import TestSupport

/// Every input the fuzzers kept (seeds and past crashes) still keeps their invariants: the
/// parsers' corpus, and the media corpus (tiny files and the inputs that once crashed or
/// hung the demux, decode and scale paths), replayed without libFuzzer.
@Suite
struct FuzzCorpusTests {
    static func replay(_ program: String, _ directory: String, atLeast minimum: Int) throws {
        let exe = URL(fileURLWithPath: Run.mediaview).deletingLastPathComponent().appendingPathComponent(program).path
        let corpus = Run.repositoryRoot + "/Tests/" + directory
        let count = try FileManager.default.contentsOfDirectory(atPath: corpus).count
        #expect(count >= minimum)
        // The test environment too: a sanitizer build needs its options and the symbolizer on PATH.
        let r = try Run.process(exe, [corpus], timeout: 120, environment: Run.environment(["SWIFT_BACKTRACE": "enable=no"]))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\(count) inputs replayed"), "\(r.stdout)")
    }

    @Test("The fuzz corpus replays without a broken invariant")
    func replay() throws {
        try Self.replay("FuzzParsers", "FuzzCorpus", atLeast: 10)
    }

    @Test("The media fuzz corpus goes through demux, decode and scale without a crash")
    func replayMedia() throws {
        try Self.replay("FuzzMedia", "FuzzMediaCorpus", atLeast: 10)
    }
}
