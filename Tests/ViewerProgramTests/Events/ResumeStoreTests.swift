import Foundation
import Testing
@testable import ViewerProgram

/// The resume file: hashed keys, bounded, written whole or not at all.
@Suite struct ResumeStoreTests {
    private func store() throws -> ResumeStore {
        let dir = (ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_TMP"] ?? NSTemporaryDirectory())
            + "/resume-\(UUID().uuidString.prefix(8))"
        return ResumeStore(path: dir + "/state/mediaview/resume")
    }

    @Test func positionsComeBackAndNamesStayOut() throws {
        let s = try store()
        #expect(s.position(for: "/home/me/secret talk.mp4") == nil)
        #expect(s.record(4321.5, for: "/home/me/secret talk.mp4"))
        #expect(s.record(60, for: "https://example.org/v.mp4?token=abc"))
        #expect(s.position(for: "/home/me/secret talk.mp4") == 4321.5)
        let text = try String(contentsOfFile: s.path, encoding: .utf8)
        #expect(!text.contains("secret") && !text.contains("token") && !text.contains("example"))
        let mode = try FileManager.default.attributesOfItem(atPath: s.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Played to the end: forgotten.
        #expect(s.record(nil, for: "/home/me/secret talk.mp4"))
        #expect(s.position(for: "/home/me/secret talk.mp4") == nil)
        #expect(s.position(for: "https://example.org/v.mp4?token=abc") == 60)
        let dir = (s.path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["resume", "resume.lock"],
                "no temporary file is left, only the lock instances take turns with")
    }

    @Test func theFileStaysBoundedKeepingTheNewest() throws {
        let s = try store()
        for i in 0..<(ResumeStore.maxEntries + 50) { s.record(Double(i) + 0.5, for: "/v\(i).mp4", now: 1_000 + i) }
        #expect(s.load().count == ResumeStore.maxEntries)
        #expect(s.position(for: "/v0.mp4") == nil, "the oldest go first")
        #expect(s.position(for: "/v\(ResumeStore.maxEntries + 49).mp4") == Double(ResumeStore.maxEntries + 49) + 0.5)
    }

    @Test func aDamagedFileLosesOnlyItsBadLines() throws {
        let s = try store()
        s.record(100, for: "/good.mp4", now: 5)
        let good = try String(contentsOfFile: s.path, encoding: .utf8)
        try (good + "garbage\nzz 1 2\n" + String(repeating: "f", count: 64) + " nan 3\n\u{0}\u{1}binary")
            .write(toFile: s.path, atomically: false, encoding: .utf8)
        #expect(s.load().count == 1)
        #expect(s.position(for: "/good.mp4") == 100)
        #expect(s.record(200, for: "/other.mp4"))
        #expect(s.load().count == 2, "rewriting drops the damaged lines")
    }
}
