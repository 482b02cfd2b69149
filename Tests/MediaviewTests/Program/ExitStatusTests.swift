import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Exit statuses and the one-line messages of SPEC's "What bad input gets": 0 all
    /// played, 1 an item failed (one line on stderr each, naming it and saying why), 2 bad
    /// usage or no X display.
    @Suite struct ExitStatus {
        /// Quick settings: stills stay 0.3 s, no sound stream to open.
        static let quick = ["--autoexit", "--image-duration", "0.3", "--no-audio"]

        /// Runs a queue that should fail on its one item and returns its only stderr line.
        private func failingItem(_ path: String, timeout: Double = 15) throws -> String {
            let r = try mediaview(Self.quick + [path], timeout: timeout)
            #expect(!r.timedOut, "mediaview hung on \(path)")
            #expect(r.status == 1, "status \(r.status) for \(path); stderr: \(r.stderr)")
            let errs = lines(r.stderr)
            #expect(errs.count == 1, "want exactly one line on stderr, got: \(errs)")
            return errs.first ?? ""
        }

        @Test func missingFileSaysNoSuchFile() throws {
            let dir = try Scratch.directory("missing")
            let line = try failingItem(dir + "/not-here.png")
            #expect(line.contains("not-here.png"))
            #expect(line.contains("No such file"))
        }

        @Test func emptyFileSaysEmpty() throws {
            let dir = try Scratch.directory("empty")
            let path = dir + "/nothing.mp4"
            _ = FileManager.default.createFile(atPath: path, contents: Data())
            let line = try failingItem(path)
            #expect(line.contains("nothing.mp4"))
            #expect(line.contains("empty"))
        }

        @Test func textFileNamedMp4GivesAReason() throws {
            let dir = try Scratch.directory("text")
            let path = dir + "/notes.mp4"
            try Data(String(repeating: "This is a shopping list, not a film.\n", count: 40).utf8)
                .write(to: URL(fileURLWithPath: path))
            let line = try failingItem(path)
            #expect(line.hasPrefix("mediaview: "))
            // A reason, not just the name: something after the name that says what is wrong.
            #expect(line.contains("notes.mp4"), "the line should name the file: \(line)")
            let reason = line.components(separatedBy: "notes.mp4").last ?? ""
            #expect(reason.count > 5, "no reason given: \(line)")
        }

        /// A pipe (nobody writing to it), a device and standard input are named for what they
        /// are, not as empty or missing files, and nothing waits on them.
        @Test(arguments: ["pipe", "device", "stdin"])
        func pipesAndDevicesSayWhatTheyAre(kind: String) throws {
            let dir = try Scratch.directory("special")
            let (path, words): (String, String)
            switch kind {
            case "pipe":
                path = dir + "/feed.mp4"
                #expect(mkfifo(path, 0o600) == 0)
                words = "feed.mp4: is a pipe; only files and web addresses can be played"
            case "device":
                (path, words) = ("/dev/null", "/dev/null: is a device; only files and web addresses can be played")
            default:
                (path, words) = ("-", "-: standard input cannot be played")
            }
            let line = try failingItem(path)
            #expect(line.hasPrefix("mediaview: ") && line.contains(words), "\(line)")
        }

        /// A folder is browsed (FolderTests); one with no media in it says so in one line.
        @Test func emptyDirectorySaysItHoldsNoMedia() throws {
            let dir = try Scratch.directory("dir")
            let line = try failingItem(dir)
            #expect(line.contains("no media files to show"), "\(line)")
        }

        /// The queue goes on past a failure and the good item is still shown: exit 1, but
        /// the log says item 0 was presented and then item 1 failed.
        @Test func goodThenMissingPresentsTheGoodOneAndExitsOne() throws {
            let red = try Fixtures.solidImage("red")
            let dir = try Scratch.directory("mixed")
            let log = dir + "/events.jsonl"
            let r = try mediaview(Self.quick + ["--events", log, red, dir + "/gone.png"])
            #expect(!r.timedOut)
            #expect(r.status == 1)
            let errs = lines(r.stderr)
            #expect(errs.count == 1 && errs.first?.contains("gone.png") == true, "stderr: \(errs)")
            let events = try Events.read(log)
            let presented0 = events.firstIndex { $0["event"] as? String == "presented" && $0["index"] as? Int == 0 }
            let failed1 = events.firstIndex { $0["event"] as? String == "failed" && $0["index"] as? Int == 1 }
            let p = try #require(presented0, "item 0 never presented: \(Events.names(events))")
            let f = try #require(failed1, "item 1 never failed: \(Events.names(events))")
            #expect(p < f)
            #expect(!Events.names(events, index: 0).contains("failed"))
            #expect((events[f]["reason"] as? String)?.contains("No such file") == true)
        }

        /// `--frames N` bounds a script's run: an item that fails before showing a frame
        /// ends it with the failure's one line and status 1, rather than waiting for ever.
        @Test func frameLimitEndsAfterAFailedItem() throws {
            let dir = try Scratch.directory("frames-broken")
            let path = dir + "/broken.jpg"
            try Data("this is not a picture".utf8).write(to: URL(fileURLWithPath: path))
            let r = try mediaview(["--frames", "1", "--no-audio", path], timeout: 15)
            #expect(!r.timedOut, "--frames 1 did not end after its one item failed")
            #expect(r.status == 1, "status \(r.status); stderr: \(r.stderr)")
            let errs = lines(r.stderr)
            #expect(errs.count == 1 && errs.first?.contains("broken.jpg") == true, "stderr: \(errs)")
        }

        @Test func allGoodExitsZeroQuietly() throws {
            let red = try Fixtures.solidImage("red")
            let blue = try Fixtures.solidImage("blue")
            let r = try mediaview(Self.quick + [red, blue])
            #expect(!r.timedOut)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(r.stderr.isEmpty, "nothing went wrong, so nothing should be said: \(r.stderr)")
            // Two stills of 0.3 s: well under the time a hang would take.
            #expect(r.seconds < 8)
        }

        @Test func badFramesValueIsUsageError() throws {
            let red = try Fixtures.solidImage("red")
            let r = try mediaview(Self.quick + ["--frames", "abc", red], timeout: 10)
            #expect(r.status == 2)
            let errs = lines(r.stderr)
            #expect(errs.count == 1, "\(errs)")
            let line = errs.first ?? ""
            #expect(line.contains("--frames") && line.contains("abc") && line.contains("--help"), "\(line)")
            // Bad usage stops before any window appears, so nothing is on stdout either.
            #expect(r.stdout.isEmpty)
        }

        @Test func unknownOptionIsUsageError() throws {
            let red = try Fixtures.solidImage("red")
            let r = try mediaview(Self.quick + ["--no-such-option", red], timeout: 10)
            #expect(r.status == 2)
            let errs = lines(r.stderr)
            #expect(errs.count == 1 && errs.first?.contains("unknown option '--no-such-option'") == true, "\(errs)")
            // A near miss gets a suggestion.
            let typo = try mediaview(["--autoexitt", red], timeout: 10)
            #expect(typo.status == 2)
            #expect(typo.stderr.contains("--autoexit"), "\(typo.stderr)")
        }

        @Test func noDisplayIsExitTwoWithAClearMessage() throws {
            let red = try Fixtures.solidImage("red")
            var env = Run.environment()
            env["DISPLAY"] = nil
            let r = try Run.process(Run.mediaview, Self.quick + [red], timeout: 10, environment: env)
            #expect(!r.timedOut)
            #expect(r.status == 2)
            let errs = lines(r.stderr)
            #expect(errs.count == 1, "\(errs)")
            #expect(errs.first?.contains("DISPLAY") == true && errs.first?.contains("display") == true, "\(errs)")
        }

        @Test func unreachableDisplayIsExitTwo() throws {
            let red = try Fixtures.solidImage("red")
            let r = try mediaview(Self.quick + [red], timeout: 10, environment: ["DISPLAY": ":999"])
            #expect(!r.timedOut)
            #expect(r.status == 2)
            let errs = lines(r.stderr)
            #expect(errs.count == 1, "\(errs)")
            #expect(errs.first?.contains(":999") == true, "the message should name the display: \(errs)")
        }
    }
}
