import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Pastes and drops from programs that never answer, die, or send a byte now and then,
    /// while a still picture is shown (nothing else wakes the window then).
    @Suite struct HostileClipboard {
        /// Waits (at most `timeout` seconds) until the program said something containing `text`.
        private func said(_ s: RunningViewer, _ text: String, timeout: Double) -> Bool {
            let start = Date()
            while !s.run.stderr.contains(text) && Date().timeIntervalSince(start) < timeout { usleep(50_000) }
            return s.run.stderr.contains(text)
        }

        /// A clipboard owner that never answers: the paste is given up after a few seconds
        /// with one line, though the still on screen gives the window no other reason to wake.
        @Test func aSilentClipboardOwnerIsGivenUpUnderAStill() throws {
            let s = try RunningViewer([try Fixtures.solidImage("red")], until: "first_frame")
            let owner = try HostileSelectionOwner(behaviour: .silent, lifetime: 30)
            defer { owner.stop() }
            let asked = Date()
            try s.key("ctrl+v")
            #expect(said(s, "nothing pasted: the program it came from stopped answering", timeout: 12),
                    "a silent owner was never given up; stderr: \(s.run.stderr)")
            #expect(Date().timeIntervalSince(asked) < 9, "given up only after \(Date().timeIntervalSince(asked)) s")
            #expect(s.shows(RGB.red) && s.run.process.isRunning)
        }

        /// A drag source that hangs after the drop: the drop is given up under a still too.
        @Test func aHungDragSourceIsGivenUpUnderAStill() throws {
            let s = try RunningViewer([try Fixtures.solidImage("red")], until: "first_frame")
            let source = try XdndSource()
            source.drop(Data("file://\(try Fixtures.solidImage("blue"))\r\n".utf8), onto: s.window.id, serve: false, hang: true)
            #expect(said(s, "the drop did not arrive", timeout: 12), "a hung drag source was never given up; stderr: \(s.run.stderr)")
            #expect(s.shows(RGB.red))
            try s.key("space")
            #expect(s.run.process.isRunning)
        }

        /// An owner that sends one byte every 0.2 s: a second Ctrl+V says the first is still
        /// arriving, the first is given up with one line within the whole-transfer limit, and
        /// a paste after that works.
        @Test func aTricklingClipboardOwnerDoesNotKeepThePasteBusy() throws {
            let s = try RunningViewer([try Fixtures.solidImage("red")], until: "first_frame")
            let owner = try HostileSelectionOwner(behaviour: .trickle(every: 0.2), lifetime: 40)
            let asked = Date()
            try s.key("ctrl+v")
            let start = Date()
            while owner.sent < 3 && Date().timeIntervalSince(start) < 5 { usleep(20_000) }
            #expect(owner.sent >= 3, "the viewer took no chunk of the incremental transfer")
            try s.key("ctrl+v")
            #expect(said(s, "nothing pasted: the paste before is still arriving", timeout: 5),
                    "a second Ctrl+V during the slow paste was silently ignored; stderr: \(s.run.stderr)")
            #expect(said(s, "sent it too slowly", timeout: 15), "the slow paste was never given up; stderr: \(s.run.stderr)")
            #expect(Date().timeIntervalSince(asked) < 14, "given up only after \(Date().timeIntervalSince(asked)) s")
            owner.stop()
            let blue = try Fixtures.solidImage("blue")
            let file = try Scratch.directory("clip") + "/list"
            try Data("file://\(blue)\r\n".utf8).write(to: URL(fileURLWithPath: file))
            let clip = try Run.start("xclip", ["-quiet", "-selection", "clipboard", "-t", "text/uri-list", file])
            defer { kill(clip.processIdentifier, SIGKILL); clip.waitUntilExit() }
            let owned = Date()
            while Date().timeIntervalSince(owned) < 5 {
                let r = try Run.process("xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"], timeout: 5)
                if r.stdout.contains("text/uri-list") { break }
                usleep(50_000)
            }
            try s.key("ctrl+v")
            #expect(s.shows(RGB.blue), "a paste after the slow one did not play; stderr: \(s.run.stderr)")
        }
    }
}
