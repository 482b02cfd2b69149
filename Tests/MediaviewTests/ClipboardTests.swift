import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Ctrl+V with what `xclip` put on the CLIPBOARD, as a file manager or browser puts it.
    @Suite struct Clipboard {
        private struct Session {
            let run: Launched
            let window: ProgramWindow
            let probe: ScreenProbe
        }

        private func start() throws -> Session {
            let log = try Scratch.directory("paste") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", log,
                                    try Fixtures.solidVideo("red", seconds: 20)])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            try #require(Events.waitFor(log, "presented", index: 0) != nil, "item 0 not presented; stderr: \(run.stderr)")
            return Session(run: run, window: window, probe: probe)
        }

        private func shows(_ s: Session, _ rgb: UInt32) -> Bool {
            s.window.waitFor(s.probe, timeout: 5) { $0.matches($0.width / 2, $0.height / 2, rgb) } != nil
        }

        /// Puts `data` on the clipboard as `type` with `xclip`, which serves it in the
        /// foreground until it is killed (the caller does, by PID).
        private func own(_ data: Data, type: String) throws -> Process {
            let file = try Scratch.directory("clip") + "/data"
            try data.write(to: URL(fileURLWithPath: file))
            let p = try Run.start("xclip", ["-quiet", "-selection", "clipboard", "-t", type, file])
            let start = Date()
            // It owns the clipboard once a reader gets something back.
            while Date().timeIntervalSince(start) < 5 {
                let r = try Run.process("xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"], timeout: 5)
                if r.stdout.contains(type) { break }
                usleep(50_000)
            }
            return p
        }

        private func paste(_ s: Session) throws {
            try xdotool(["key", "--window", String(s.window.id), "ctrl+v"])
        }

        private func waitForLines(_ s: Session, _ n: Int) -> [String] {
            let start = Date()
            while lines(s.run.stderr).count < n && Date().timeIntervalSince(start) < 8 { usleep(50_000) }
            return lines(s.run.stderr)
        }

        /// A file manager's copied file plays at once.
        @Test func pastesAFileList() throws {
            let s = try start()
            let clip = try own(Data("file://\(try Fixtures.solidImage("blue"))\r\n".utf8), type: "text/uri-list")
            defer { kill(clip.processIdentifier, SIGKILL); clip.waitUntilExit() }
            try paste(s)
            #expect(shows(s, RGB.blue), "the pasted file is not on screen; stderr: \(s.run.stderr)")
        }

        /// A link copied from a browser (plain UTF-8 text) plays, fetched from the web.
        @Test func pastesALink() throws {
            let s = try start()
            let root = try TestEnvironment.httpRoot, base = try TestEnvironment.http
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("blue"), toPath: root + "/pasted-blue.png")
            defer { try? FileManager.default.removeItem(atPath: root + "/pasted-blue.png") }
            let clip = try own(Data("  \(base)/pasted-blue.png\n".utf8), type: "UTF8_STRING")
            defer { kill(clip.processIdentifier, SIGKILL); clip.waitUntilExit() }
            try paste(s)
            #expect(shows(s, RGB.blue), "the pasted link is not on screen; stderr: \(s.run.stderr)")
        }

        /// An empty clipboard, binary junk and 5 MiB of text: one line each, and what plays
        /// goes on.
        @Test func badClipboardsAreRefused() throws {
            let s = try start()
            // The xclip of the tests before was killed, so nobody owns the clipboard now.
            try paste(s)
            var said = waitForLines(s, 1)
            let junk = try own(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }), type: "UTF8_STRING")
            try paste(s)
            said = waitForLines(s, 2)
            kill(junk.processIdentifier, SIGKILL)
            junk.waitUntilExit()
            let big = try own(Data(repeating: UInt8(ascii: "a"), count: 5 << 20), type: "UTF8_STRING")
            defer { kill(big.processIdentifier, SIGKILL); big.waitUntilExit() }
            try paste(s)
            said = waitForLines(s, 3)
            #expect(said.count == 3, "\(said)")
            #expect(said.first?.hasPrefix("mediaview: nothing ") == true, "\(said)")
            #expect(said.dropFirst().first?.contains("binary data") == true, "\(said)")
            #expect(said.last?.contains("larger than 4 MiB") == true, "\(said)")
            #expect(shows(s, RGB.red), "a refused paste changed what is shown")
            #expect(s.run.process.isRunning)
        }
    }
}
