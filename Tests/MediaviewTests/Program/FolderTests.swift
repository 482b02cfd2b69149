import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Folders as arguments and "open one, browse all", checked through the event log.
    @Suite struct Folders {
        /// A folder of small red PNGs with these names (folders made as needed).
        static func folder(_ names: [String]) throws -> String {
            let red = try Fixtures.solidImage("red", width: 64, height: 48)
            let dir = try Scratch.directory("folder")
            for name in names {
                let path = dir + "/" + name
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: red, toPath: path)
            }
            return dir
        }

        /// The sources in the order they were presented.
        static func presented(_ log: String) throws -> [String] {
            try Events.read(log).filter { $0["event"] as? String == "will_present" }.compactMap { $0["source"] as? String }
        }

        @Test func aFolderPlaysInNaturalOrderAndCountsWhatItSkipped() throws {
            let dir = try Self.folder(["img10.png", "img2.png", "img1.png", "Ünïcode name.png", ".hidden.png",
                                       "sub/deep.png"])
            try "notes".write(toFile: dir + "/notes.txt", atomically: true, encoding: .utf8)
            let log = try Scratch.directory("folder-log") + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--image-duration", "0.05", "--no-audio", "--events", log, dir])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try Self.presented(log) == ["img1.png", "img2.png", "img10.png", "Ünïcode name.png"].map { dir + "/" + $0 })
            let folder = try #require(try Events.read(log).first { $0["event"] as? String == "folder" })
            #expect(folder["files"] as? Int == 4)
            #expect(folder["skipped_hidden"] as? Int == 1)
            // notes.txt and the subfolder, which only -r enters.
            #expect(folder["skipped_other"] as? Int == 2)
        }

        @Test func recursiveWithASymlinkLoopAndReverseOrder() throws {
            let dir = try Self.folder(["a.png", "sub/b.png", "sub/inner/c.png"])
            try FileManager.default.createSymbolicLink(atPath: dir + "/sub/inner/loop", withDestinationPath: "../..")
            let log = try Scratch.directory("folder-r") + "/events.jsonl"
            let r = try mediaview(["-r", "--reverse", "--autoexit", "--image-duration", "0.05", "--no-audio",
                                   "--events", log, dir])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try Self.presented(log) == ["sub/inner/c.png", "sub/b.png", "a.png"].map { dir + "/" + $0 })
        }

        /// A link to nothing and a damaged picture among good ones: one line each on
        /// stderr, and every good picture is still shown.
        @Test func unreadableFilesGetOneLineEachAndTheRestGoesOn() throws {
            let dir = try Self.folder(["a.png", "c.png"])
            try FileManager.default.createSymbolicLink(atPath: dir + "/b-gone.png", withDestinationPath: dir + "/nowhere.png")
            try Data("not a picture at all, just text".utf8).write(to: URL(fileURLWithPath: dir + "/b-text.png"))
            let log = try Scratch.directory("folder-bad") + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--image-duration", "0.05", "--no-audio", "--events", log, dir])
            #expect(r.status == 1, "stderr: \(r.stderr)")
            let errs = lines(r.stderr)
            #expect(errs.count == 2, "\(errs)")
            #expect(errs.contains { $0.contains("b-gone.png") && $0.contains("No such file") }, "\(errs)")
            #expect(errs.contains { $0.contains("b-text.png") }, "\(errs)")
            let shown = try Events.read(log).filter { $0["event"] as? String == "first_frame" }.compactMap { $0["source"] as? String }
            #expect(shown == [dir + "/a.png", dir + "/c.png"])
        }

        /// What the desktop file does with a player already open: a folder is handed over as
        /// its files, a file opened with --browse-folder joins alone.
        @Test func enqueueHandsARunningPlayerFilesNotFolders() throws {
            let dir = try Self.folder(["x1.png", "x2.png", "x10.png"])
            let runtime = try Scratch.directory("runtime")
            let env = ["XDG_RUNTIME_DIR": runtime]
            let first = try Launched(["--windowed", "--geometry", "320x240+0+0", try Fixtures.solidImage("red")],
                                     environment: env)
            _ = try #require(ProgramWindow.wait(try ScreenProbe()), "no window; stderr: \(first.stderr)")
            let client = try SocketClient(path: runtime + "/mediaview.socket")
            let folder = try mediaview(["--enqueue", dir], timeout: 10, environment: env)
            #expect(lines(folder.stderr) == ["mediaview: added 3 items to the mediaview running at \(runtime)/mediaview.socket"],
                    "\(folder.stderr)")
            let one = try mediaview(["--enqueue", "--browse-folder", dir + "/x2.png"], timeout: 10, environment: env)
            #expect(lines(one.stderr) == ["mediaview: added 1 item to the mediaview running at \(runtime)/mediaview.socket"],
                    "\(one.stderr)")
            #expect(try client.request(["get_property", "playlist-count"], id: 1)["data"] as? Int == 5)
            _ = try client.request(["quit"], id: 2)
            #expect(first.finish(timeout: 10)?.status == 0)
        }

        @Test func anEmptyFolderSaysSoAndFails() throws {
            let dir = try Self.folder([])
            try "x".write(toFile: dir + "/readme.txt", atomically: true, encoding: .utf8)
            let r = try mediaview(["--autoexit", "--no-audio", dir])
            #expect(r.status == 1)
            #expect(lines(r.stderr).first == "mediaview: folder \(dir): no media files to show (0 hidden and 1 other entries left out)",
                    "\(r.stderr)")
        }

        @Test func aPlainCommandLineQueuesOnlyTheFileGiven() throws {
            let dir = try Self.folder(["p1.png", "p2.png", "p3.png"])
            let log = try Scratch.directory("plain") + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--image-duration", "0.05", "--no-audio", "--events", log, dir + "/p2.png"])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try Self.presented(log) == [dir + "/p2.png"])
        }

        /// As a file manager opens it: the file first, its neighbours ready both ways, the
        /// rest of the folder in order, and Home and End go to the ends.
        @Test func browseFolderOpensTheFileAmongItsNeighbours() throws {
            let dir = try Self.folder((1...6).map { "p\($0).png" })
            let log = try Scratch.directory("browse") + "/events.jsonl"
            let run = try Launched(["--browse-folder", "--windowed", "--geometry", "320x240+0+0", "--no-audio",
                                    "--events", log, "file://" + dir + "/p3.png"])
            // The first picture first, so the window found is this program's, not one of a
            // program before it that is still closing.
            let first = try #require(Events.waitFor(log, "first_frame"), "stderr: \(run.stderr)")
            let window = try #require(ProgramWindow.wait(try ScreenProbe()), "no window; stderr: \(run.stderr)")
            #expect(first["index"] as? Int == 2)
            #expect(first["source"] as? String == "file://" + dir + "/p3.png")
            // Both neighbours were opened before anyone asked for them.
            #expect(Events.waitFor(log, "loaded", index: 1) != nil, "the previous item was not kept ready")
            #expect(Events.waitFor(log, "loaded", index: 3) != nil, "the next item was not made ready")
            let id = String(window.id)
            try xdotool(["key", "--window", id, "p"])
            #expect(Events.waitFor(log, "first_frame", index: 1) != nil)
            try xdotool(["key", "--window", id, "End"])
            #expect(Events.waitFor(log, "first_frame", index: 5) != nil)
            try xdotool(["key", "--window", id, "Home"])
            #expect(Events.waitFor(log, "first_frame", index: 0) != nil)
            try pressQuit(on: window.id)
            let ended = try #require(run.finish(timeout: 10))
            #expect(ended.status == 0, "stderr: \(ended.stderr)")
            #expect(try Self.presented(log).map { ($0 as NSString).lastPathComponent }
                    == ["p3.png", "p2.png", "p6.png", "p1.png"])
        }

        /// 100,000 files (hard links to two pictures): the first picture is on screen before
        /// the rest of the folder has become queue items.
        @Test func aHundredThousandFilesAreListedAsAStream() throws {
            let dir = try Scratch.directory("huge")
            // Copies of their own to link to: the shared fixtures may already carry other
            // tests' links, and a file system allows some 65,000 links to one file (so two sources).
            let sources = try Scratch.directory("huge-sources")
            let red = sources + "/red.png", blue = sources + "/blue.png"
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("red", width: 64, height: 48), toPath: red)
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("blue", width: 64, height: 48), toPath: blue)
            for i in 0..<100_000 {
                hardLink(i < 50_000 ? red : blue, dir + "/p\(i).png")
            }
            let log = try Scratch.directory("huge-log") + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", log, dir])
            let first = try #require(Events.waitFor(log, "first_frame", timeout: 30), "stderr: \(run.stderr)")
            let queued = try #require(Events.waitFor(log, "queued", timeout: 120), "stderr: \(run.stderr)")
            #expect(queued["items"] as? Int == 100_000)
            #expect(first["source"] as? String == dir + "/p0.png")
            #expect((first["t"] as? Double ?? .infinity) < (queued["t"] as? Double ?? 0),
                    "the first picture waited for the whole folder")
            kill(run.pid, SIGTERM)
            _ = run.finish(timeout: 20)
        }
    }
}

/// A hard link, or a failed expectation saying why not.
private func hardLink(_ source: String, _ link: String) {
    #expect(Foundation.link(source, link) == 0, "link \(link): \(String(cString: strerror(errno)))")
}
