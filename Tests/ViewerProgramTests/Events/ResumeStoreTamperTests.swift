import Foundation
import Testing
@testable import ViewerProgram

/// The resume file against what else may be in the state folder or write to it: a
/// planted link, a FIFO, a file of a gigabyte's kind, and other instances saving at the
/// same moment.
@Suite struct ResumeStoreTamperTests {
    private func store() throws -> ResumeStore {
        let dir = (ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_TMP"] ?? NSTemporaryDirectory())
            + "/resume-tamper-\(UUID().uuidString.prefix(8))/state/mediaview"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return ResumeStore(path: dir + "/resume")
    }

    @Test func aLinkPlantedAtTheTemporaryNameDoesNotOverwriteItsTarget() throws {
        let s = try store()
        let victim = s.path + "-victim"
        try "keep me".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: s.path + ".\(getpid()).tmp", withDestinationPath: victim)
        #expect(s.record(300, for: "/film.mkv"))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(s.position(for: "/film.mkv") == 300)
    }

    @Test func instancesSavingAtOnceKeepEveryPosition() throws {
        let s = try store()
        // Four writers, as four instances quitting together; each opens the lock itself.
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            for i in 0..<25 { s.record(Double(100 + i), for: "/w\(writer)/v\(i).mp4") }
        }
        #expect(s.load().count == 100, "\(s.load().count) of 100 positions kept")
        #expect(s.position(for: "/w3/v24.mp4") == 124)
    }

    @Test func aHugeFileIsReadOnlyAsFarAsTheNewestGo() throws {
        let s = try store()
        let line = String(repeating: "ab", count: 32) + " 500.000 1000\n"
        // About 40 MB of well-formed lines, the oldest first and the newest last. What is read
        // is told by what is found, not by a time: the line at the head is never reached.
        var text = ResumeStore.key("/oldest.mp4") + " 333.000 500\n"
        text += String(repeating: line, count: 500_000)
        text += ResumeStore.key("/newest.mp4") + " 777.000 2000\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: s.path))
        #expect(s.position(for: "/newest.mp4") == 777)
        #expect(s.position(for: "/oldest.mp4") == nil, "the whole 40 MB was read, head included")
        #expect(s.record(800, for: "/another.mp4"))
        let size = try FileManager.default.attributesOfItem(atPath: s.path)[.size] as? Int ?? 0
        #expect(size <= ResumeStore.maxFileBytes, "saved bounded: \(size) bytes")
    }

    @Test func aFIFOInPlaceOfTheFileIsNotWaitedOn() throws {
        let s = try store()
        #expect(mkfifo(s.path, 0o600) == 0)
        // Should a read wait on the FIFO, a writer comes after 3 s and ends the wait, so the
        // test fails on the time taken instead of hanging.
        let path = s.path
        let release = Thread {
            usleep(3_000_000)
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        release.start()
        let start = Date()
        #expect(s.position(for: "/film.mkv") == nil)
        #expect(Date().timeIntervalSince(start) < 1.5, "waited \(Date().timeIntervalSince(start)) s on a FIFO")
    }
}
