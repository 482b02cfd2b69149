import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// File names as people have them: spaces, accents, symbols, and `file://` URLs with
    /// percent-encoding, as a file manager hands them over.
    @Suite struct Names {
        /// Copies the red test image to `name` in a fresh directory and returns its path.
        private func redImage(named name: String) throws -> String {
            let dir = try Scratch.directory("names")
            let path = dir + "/" + name
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("red"), toPath: path)
            return path
        }

        /// Plays `input` and checks it was presented and nothing failed; returns the log.
        private func plays(_ input: String) throws -> [[String: Any]] {
            let dir = try Scratch.directory("names-log")
            let log = dir + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--image-duration", "0.3", "--no-audio", "--events", log, input])
            #expect(!r.timedOut)
            #expect(r.status == 0, "\(input) did not play: \(r.stderr)")
            #expect(r.stderr.isEmpty, "\(r.stderr)")
            let events = try Events.read(log)
            let names = Events.names(events, index: 0)
            #expect(names.contains("presented") && names.contains("loaded") && !names.contains("failed"), "\(names)")
            return events
        }

        @Test func spacesAndNonAsciiInAPath() throws {
            let path = try redImage(named: "ünï cödé ✓.png")
            let events = try plays(path)
            // The log quotes the name exactly, through JSON escaping and back.
            #expect(events.first?["source"] as? String == path)
            // The image really is the one shown: its size comes from decoding it.
            let loaded = events.first { $0["event"] as? String == "loaded" }
            #expect(loaded?["width"] as? Int == 320 && loaded?["height"] as? Int == 240)
        }

        @Test func nameWithAColonIsAFileNotAProtocol() throws {
            // FFmpeg reads "name:rest" as a protocol; the program must not.
            let path = try redImage(named: "clip:1 (copy).png")
            _ = try plays(path)
        }

        @Test func fileURLWithPercentEncoding() throws {
            let path = try redImage(named: "with space.png")
            let url = "file://" + path.replacingOccurrences(of: " ", with: "%20")
            #expect(url.contains("%20"))
            _ = try plays(url)
        }

        @Test func fileURLWithEncodedUnicode() throws {
            let path = try redImage(named: "ünï cödé ✓.png")
            let encoded = try #require(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
            #expect(encoded.contains("%C3%BC"), "ü should be percent-encoded UTF-8: \(encoded)")
            _ = try plays("file://" + encoded)
        }

        @Test func relativePathWithSpaces() throws {
            let path = try redImage(named: "a b c.png")
            let dir = (path as NSString).deletingLastPathComponent
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Run.mediaview)
            p.arguments = ["--autoexit", "--image-duration", "0.3", "--no-audio", "a b c.png"]
            p.environment = Run.environment()
            p.currentDirectoryURL = URL(fileURLWithPath: dir)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try Run.launch(p)
            #expect(Run.wait(p, timeout: 15), "hung")
            #expect(p.terminationStatus == 0)
        }

        /// The window title is the file's name, UTF-8 intact (what a task bar shows).
        @Test func windowTitleIsTheUtf8Name() throws {
            let path = try redImage(named: "ünï cödé ✓.png")
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--autoexit", "--image-duration", "1.5",
                                    "--no-audio", path])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            var title = ""
            let start = Date()
            while !title.contains("ünï") && Date().timeIntervalSince(start) < 5 {
                let r = try Run.process("xprop", ["-id", String(window.id), "_NET_WM_NAME"], timeout: 5,
                                        environment: Run.environment(["LC_ALL": "C.UTF-8"]))
                title = r.stdout
                usleep(100_000)
            }
            #expect(title.contains("\"ünï cödé ✓.png\""), "_NET_WM_NAME is \(title)")
            #expect(run.finish(timeout: 10)?.status == 0)
        }
    }
}
