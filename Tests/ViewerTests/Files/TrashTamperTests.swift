import Foundation
import Testing
import TestSupport
@testable import Viewer

/// The trash when someone else has been at it: a file swapped for a symbolic link while it
/// lay there, and a home trash that is a link to a folder elsewhere.
@Suite struct TrashTamperTests {
    private func scratch() throws -> String {
        let base = try #require(ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_TMP"], "run inside scripts/testenv.sh")
        let dir = base + "/trash-tamper-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func undoDoesNotBringBackALinkPutInTheFilesPlace() throws {
        let dir = try scratch()
        let trash = Trash(homeTrash: dir + "/Trash")
        let file = dir + "/photo.jpg"
        try Data("picture".utf8).write(to: URL(fileURLWithPath: file))
        let secret = dir + "/secret.txt"
        try Data("secret".utf8).write(to: URL(fileURLWithPath: secret))
        let item = try trash.moveToTrash(path: file)
        // Swapped while in the trash: a link to a file the user never trashed.
        try FileManager.default.removeItem(atPath: item.trashedPath)
        try FileManager.default.createSymbolicLink(atPath: item.trashedPath, withDestinationPath: secret)

        #expect(throws: Trash.Refusal.self) { try trash.restore(item) }
        var st = stat()
        #expect(lstat(file, &st) != 0, "nothing may appear at the original path")
        #expect(FileManager.default.fileExists(atPath: item.infoPath), "the trash entry stays")
        do { try trash.restore(item) } catch {
            #expect(!error.description.contains("\n") && error.description.hasSuffix("it stays in the trash"), "\(error)")
        }
    }

    @Test func undoStillBringsBackTheFileThatWasMoved() throws {
        let dir = try scratch()
        let trash = Trash(homeTrash: dir + "/Trash")
        let file = dir + "/a.png"
        try Data("a".utf8).write(to: URL(fileURLWithPath: file))
        let item = try trash.moveToTrash(path: file)
        try trash.restore(item)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("a".utf8))
    }

    @Test func aHomeTrashThatIsALinkIsNotFollowed() throws {
        let dir = try scratch()
        let elsewhere = dir + "/elsewhere"
        for sub in ["", "/files", "/info"] {
            try FileManager.default.createDirectory(atPath: elsewhere + sub, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: dir + "/Trash", withDestinationPath: elsewhere)
        let file = dir + "/b.png"
        try Data("b".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: Trash.Refusal.self) { _ = try Trash(homeTrash: dir + "/Trash").moveToTrash(path: file) }
        #expect(FileManager.default.fileExists(atPath: file), "the file stays where it is")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere + "/files").isEmpty)
    }
}
