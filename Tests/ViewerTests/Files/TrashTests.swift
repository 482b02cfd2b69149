import Foundation
import Testing
import TestSupport
@testable import Viewer

/// The freedesktop.org trash, on real file systems: the home trash, a second volume's
/// `.Trash-$UID`, a read-only volume that has none, and putting files back.
@Suite(.serialized) struct TrashTests {
    static func env(_ name: String) throws -> String {
        try #require(ProcessInfo.processInfo.environment[name], "\(name) is not set: run inside scripts/testenv.sh (as root for the volumes)")
    }

    static func scratch(_ base: String) throws -> String {
        let dir = base + "/trash-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The `.trashinfo` read as a key file: the group line and its keys.
    static func info(_ path: String) throws -> (group: String, keys: [String: String]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        var keys: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { keys[parts[0]] = parts[1] }
        }
        return (lines.first ?? "", keys)
    }

    @Test func homeTrashKeepsTheFileAndSaysWhereItWas() throws {
        let home = try Self.scratch(try Self.env("MEDIAVIEW_TEST_TMP")) + "/Trash"
        let dir = try Self.scratch(try Self.env("MEDIAVIEW_TEST_TMP"))
        let file = dir + "/holiday photo ü.jpg"
        try Data("picture".utf8).write(to: URL(fileURLWithPath: file))
        let trash = Trash(homeTrash: home)
        let item = try trash.moveToTrash(path: file)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(item.trashedPath == home + "/files/holiday photo ü.jpg")
        #expect(try Data(contentsOf: URL(fileURLWithPath: item.trashedPath)) == Data("picture".utf8))
        let info = try Self.info(home + "/info/holiday photo ü.jpg.trashinfo")
        #expect(info.group == "[Trash Info]")
        #expect(info.keys["Path"]?.hasSuffix("/holiday%20photo%20%C3%BC.jpg") == true, "escaped as a URI: \(info.keys)")
        #expect(info.keys["Path"].flatMap { $0.removingPercentEncoding } == file)
        let date = try #require(info.keys["DeletionDate"])
        #expect(date.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$"#, options: .regularExpression) != nil, "\(date)")

        // A second file of the same name gets a name of its own in the trash.
        try Data("other".utf8).write(to: URL(fileURLWithPath: file))
        let second = try trash.moveToTrash(path: file)
        #expect(second.trashedPath != item.trashedPath)
        #expect(FileManager.default.fileExists(atPath: second.infoPath))

        // Undo: the first one comes back; the second cannot while the first holds the name.
        try trash.restore(item)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("picture".utf8))
        #expect(!FileManager.default.fileExists(atPath: item.infoPath))
        #expect(throws: Trash.Refusal.self) { try trash.restore(second) }
        #expect(FileManager.default.fileExists(atPath: second.trashedPath), "a refused restore keeps it in the trash")
    }

    @Test func anotherVolumeUsesItsOwnTrash() throws {
        let volume = try Self.env("MEDIAVIEW_TEST_VOLUME")
        let home = try Self.scratch(try Self.env("MEDIAVIEW_TEST_TMP")) + "/Trash"
        let dir = try Self.scratch(volume)
        let file = dir + "/clip.mp4"
        try Data("movie".utf8).write(to: URL(fileURLWithPath: file))
        let item = try Trash(homeTrash: home).moveToTrash(path: file)
        let own = volume + "/.Trash-\(getuid())"
        #expect(item.trashedPath == own + "/files/clip.mp4")
        // Relative to the volume's top, so the volume can be mounted elsewhere.
        #expect(try Self.info(item.infoPath).keys["Path"] == String(file.dropFirst(volume.count + 1)))
        #expect(!FileManager.default.fileExists(atPath: home + "/files/clip.mp4"))
        try Trash(homeTrash: home).restore(item)
        #expect(FileManager.default.fileExists(atPath: file))
    }

    @Test func aVolumeWithoutTrashIsRefusedAndTheFileStays() throws {
        let volume = try Self.env("MEDIAVIEW_TEST_READONLY_VOLUME")
        let home = try Self.scratch(try Self.env("MEDIAVIEW_TEST_TMP")) + "/Trash"
        let file = volume + "/still.jpg"
        do {
            _ = try Trash(homeTrash: home).moveToTrash(path: file)
            Issue.record("a file on a read-only volume went to the trash")
        } catch {
            #expect(error.description == "cannot move \(file) to the trash: its volume (\(volume)) has no trash folder "
                + "and none can be made there (Read-only file system); the file stays")
        }
        #expect(FileManager.default.fileExists(atPath: file))
    }
}
