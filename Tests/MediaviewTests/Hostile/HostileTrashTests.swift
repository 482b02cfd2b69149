import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Undo in the running program when the trashed file was swapped, while in the trash,
    /// for a symbolic link to a file the user never trashed: `u` refuses in one line, and
    /// nothing appears at the original path.
    @Suite struct HostileTrash {
        @Test func undoRefusesALinkPutInTheTrashedFilesPlace() throws {
            let dir = try Scratch.directory("hostile-trash")
            let red = try Fixtures.solidImage("red", width: 64, height: 48)
            for name in ["a.png", "b.png", "c.png"] { try FileManager.default.copyItem(atPath: red, toPath: dir + "/" + name) }
            let secret = try Scratch.directory("hostile-secret") + "/secret.txt"
            try "not for the picture folder".write(toFile: secret, atomically: true, encoding: .utf8)
            let s = try TrashKeys.start([dir])
            try xdotool(["key", "--window", s.window, "Delete"])
            let trashed = try #require(Events.waitFor(s.log, "trashed", index: 0), "stderr: \(s.run.stderr)")
            let info = try #require(trashed["trashinfo"] as? String)
            let inTrash = ((info as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
                + "/files/a.png"
            #expect(Events.waitFor(s.log, "first_frame", index: 1) != nil)
            try FileManager.default.removeItem(atPath: inTrash)
            try FileManager.default.createSymbolicLink(atPath: inTrash, withDestinationPath: secret)

            try xdotool(["key", "--window", s.window, "u"])
            let refused = try #require(Events.waitFor(s.log, "trash_refused"), "stderr: \(s.run.stderr)")
            let reason = refused["reason"] as? String ?? ""
            #expect(reason.hasPrefix("cannot bring back \(dir)/a.png") && !reason.contains("\n"), "\(reason)")
            var st = stat()
            #expect(lstat(dir + "/a.png", &st) != 0, "the link was moved to the original path")
            #expect(try Events.read(s.log).allSatisfy { $0["event"] as? String != "restored" })
            let ended = try TrashKeys.quit(s)
            #expect(ended.status == 0, "stderr: \(ended.stderr)")
        }
    }
}
