import Foundation
import Testing
import TestSupport

/// Every input the fuzzer kept (seeds and past crashes) still keeps the parsers' invariants.
@Suite
struct FuzzCorpusTests {
    @Test("The fuzz corpus replays without a broken invariant")
    func replay() throws {
        let exe = URL(fileURLWithPath: Run.mediaview).deletingLastPathComponent().appendingPathComponent("FuzzParsers").path
        let corpus = Run.repositoryRoot + "/Tests/FuzzCorpus"
        let count = try FileManager.default.contentsOfDirectory(atPath: corpus).count
        #expect(count >= 10)
        let r = try Run.process(exe, [corpus], timeout: 120, environment: ["SWIFT_BACKTRACE": "enable=no"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\(count) inputs replayed"), "\(r.stdout)")
    }
}
