import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// `Delete` and `u` in the running program: the file goes to the trash of the test's
    /// own `$XDG_DATA_HOME`, the queue moves on, and undo brings file and item back.
    @Suite struct TrashKeys {
        struct Session {
            let run: Launched
            let window: String
            let log: String
        }

        static func start(_ inputs: [String]) throws -> Session {
            let log = try Scratch.directory("trash-log") + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", log] + inputs)
            // The first picture first, so the window found is this program's.
            try #require(Events.waitFor(log, "first_frame", index: 0) != nil, "stderr: \(run.stderr)")
            let window = try #require(ProgramWindow.wait(try ScreenProbe()), "no window; stderr: \(run.stderr)")
            return Session(run: run, window: String(window.id), log: log)
        }

        /// Ends the program with `q`, as a user would, and says how it ended; the log must show
        /// `quit` took the key.
        static func quit(_ s: Session) throws -> Launched.Ended {
            try pressQuit(on: UInt(s.window) ?? 0)
            let ended = try #require(s.run.finish(timeout: 10), "q did not end the program")
            #expect(try Events.read(s.log).contains { $0["event"] as? String == "key" && $0["taken"] as? String == "quit" },
                    "the log does not show quit taking q")
            return ended
        }

        @Test func deleteTrashesAndUndoBringsBack() throws {
            let data = try TestEnvironment.require("XDG_DATA_HOME")
            let dir = try Scratch.directory("trash-files")
            let red = try Fixtures.solidImage("red", width: 64, height: 48)
            for name in ["a.png", "b.png", "c.png"] { try FileManager.default.copyItem(atPath: red, toPath: dir + "/" + name) }
            let s = try Self.start([dir])
            try xdotool(["key", "--window", s.window, "Delete"])
            let trashed = try #require(Events.waitFor(s.log, "trashed", index: 0), "stderr: \(s.run.stderr)")
            #expect(trashed["path"] as? String == dir + "/a.png")
            let info = try #require(trashed["trashinfo"] as? String)
            #expect(info.hasPrefix(data + "/Trash/info/"))
            #expect(!FileManager.default.fileExists(atPath: dir + "/a.png"))
            #expect(FileManager.default.fileExists(atPath: data + "/Trash/files/a.png"))
            let text = try String(contentsOfFile: info, encoding: .utf8)
            #expect(text.hasPrefix("[Trash Info]\nPath=\(dir)/a.png\nDeletionDate="), "\(text)")
            // The queue moved on to the next file.
            #expect(Events.waitFor(s.log, "first_frame", index: 1) != nil)

            try xdotool(["key", "--window", s.window, "u"])
            #expect(Events.waitFor(s.log, "restored", index: 0) != nil, "stderr: \(s.run.stderr)")
            #expect(FileManager.default.fileExists(atPath: dir + "/a.png"))
            #expect(!FileManager.default.fileExists(atPath: info))
            // Back on screen: presented a second time.
            let start = Date()
            while try Events.read(s.log).filter({ $0["event"] as? String == "first_frame" && $0["index"] as? Int == 0 }).count < 2,
                  Date().timeIntervalSince(start) < 10 { usleep(20_000) }
            #expect(try Events.read(s.log).filter { $0["event"] as? String == "first_frame" && $0["index"] as? Int == 0 }.count == 2)
            let ended = try Self.quit(s)
            #expect(ended.status == 0, "stderr: \(ended.stderr)")
        }

        @Test func webMediaIsRefusedWithAReason() throws {
            let url = try TestEnvironment.http + "/01-still.jpg"
            let s = try Self.start([url])
            try xdotool(["key", "--window", s.window, "Delete"])
            let refused = try #require(Events.waitFor(s.log, "trash_refused", index: 0), "stderr: \(s.run.stderr)")
            let reason = "cannot move \(url) to the trash: it is on the web, not a file on this computer"
            #expect(refused["reason"] as? String == reason)
            let ended = try Self.quit(s)
            #expect(lines(ended.stderr).contains("mediaview: " + reason), "\(ended.stderr)")
            #expect(ended.status == 0)
        }

        @Test func aReadOnlyVolumeIsRefusedAndTheFileStays() throws {
            let volume = try TestEnvironment.require("MEDIAVIEW_TEST_READONLY_VOLUME")
            let s = try Self.start([volume + "/still.jpg"])
            try xdotool(["key", "--window", s.window, "Delete"])
            let refused = try #require(Events.waitFor(s.log, "trash_refused", index: 0), "stderr: \(s.run.stderr)")
            #expect((refused["reason"] as? String)?.hasSuffix("(Read-only file system); the file stays") == true)
            #expect(FileManager.default.fileExists(atPath: volume + "/still.jpg"))
            let ended = try Self.quit(s)
            #expect(ended.status == 0, "stderr: \(ended.stderr)")
        }
    }
}
