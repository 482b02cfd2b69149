import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Files and links dropped on the window by a real XDND source client.
    @Suite struct Drop {
        private func uriList(_ paths: [String]) -> Data {
            Data(paths.map { "file://" + $0.replacingOccurrences(of: " ", with: "%20") + "\r\n" }.joined().utf8)
        }

        /// A plain drag of two files: the first is presented at once, the second follows.
        @Test func droppedFilesArePresented() throws {
            let s = try RunningViewer([try Fixtures.solidVideo("red", seconds: 20)])
            let blue = try Fixtures.solidImage("blue"), green = try Fixtures.solidImage("lime")
            let source = try XdndSource()
            source.drop(uriList([blue, green]), onto: s.window.id)
            #expect(source.finished == true, "the window did not accept the drop")
            #expect(s.shows(RGB.blue), "the first dropped file is not on screen")
            #expect(Events.waitFor(s.log, "presented", index: 1)?["source"] as? String == blue)
            try s.key("n")
            #expect(s.shows(0x00FF00), "the second dropped file did not follow")
            try s.key("p")
            try s.key("p")
            #expect(s.shows(RGB.red), "the item played before the drop is gone from the history")
        }

        /// A drag with the move action (a modifier held) appends: what plays goes on.
        @Test func otherActionsAppend() throws {
            let s = try RunningViewer([try Fixtures.solidVideo("red", seconds: 20)])
            let source = try XdndSource()
            source.drop(uriList([try Fixtures.solidImage("blue")]), action: "XdndActionMove", onto: s.window.id)
            #expect(source.finished == true)
            #expect(s.shows(RGB.red), "an appended drop replaced the item on screen")
            try s.key("n")
            #expect(s.shows(RGB.blue), "the appended file is not next")
        }

        /// Text with a URL and a path, and a line that is neither: what plays is queued and
        /// the rest is named in one line.
        @Test func textDropsAndWhatIsNotPlayable() throws {
            let s = try RunningViewer([try Fixtures.solidVideo("red", seconds: 20)])
            let blue = try Fixtures.solidImage("blue")
            let source = try XdndSource()
            source.drop(Data("\(blue)\nftp://example.org/x.mp4\n".utf8), type: "UTF8_STRING", onto: s.window.id)
            #expect(s.shows(RGB.blue))
            let junk = try XdndSource()
            junk.drop(Data([0x89, 0x50, 0x00, 0xFF, 0xFE]), type: "text/plain", onto: s.window.id)
            #expect(junk.finished == true)
            let start = Date()
            while lines(s.run.stderr).count < 2 && Date().timeIntervalSince(start) < 5 { usleep(50_000) }
            let said = lines(s.run.stderr)
            #expect(said.count == 2, "\(said)")
            #expect(said.first?.contains("1 item of the drop skipped") == true && said.first?.contains("ftp://") == true)
            #expect(said.last?.contains("nothing to play in the drop") == true && said.last?.contains("binary data") == true)
            #expect(s.shows(RGB.blue), "a bad drop changed what is shown")
        }

        /// 10,000 files at once: the first shows promptly and the window keeps answering.
        @Test func tenThousandFilesDoNotFreeze() throws {
            let s = try RunningViewer([try Fixtures.solidVideo("red", seconds: 20)])
            let green = try Fixtures.solidImage("lime"), blue = try Fixtures.solidImage("blue")
            let source = try XdndSource()
            let began = Date()
            source.drop(uriList([green] + Array(repeating: blue, count: 9_999)), onto: s.window.id)
            #expect(source.finished == true)
            #expect(s.shows(0x00FF00), "the first of 10,000 dropped files is not on screen")
            let seconds = Date().timeIntervalSince(began)
            // A bound for a freeze, not a speed figure: on a busy machine the first of a big
            // drop may take seconds, but a window that queues everything first takes far longer.
            #expect(seconds < 15, "10,000 files took \(seconds) s to show the first")
            try s.key("n")
            #expect(s.shows(RGB.blue), "the window stopped answering keys after a big drop")
        }

        /// A source that dies right after the drop, or hangs: one line says so, the window goes on.
        @Test(arguments: [false, true]) func sourceDyingMidTransfer(hangs: Bool) throws {
            let s = try RunningViewer([try Fixtures.solidVideo("red", seconds: 20)])
            let source = try XdndSource()
            source.drop(uriList([try Fixtures.solidImage("blue")]), onto: s.window.id, serve: false, hang: hangs)
            let start = Date()
            while !s.run.stderr.contains("the drop did not arrive") && Date().timeIntervalSince(start) < 10 { usleep(50_000) }
            #expect(lines(s.run.stderr).count == 1 && s.run.stderr.contains("the drop did not arrive"), "\(s.run.stderr)")
            #expect(s.shows(RGB.red), "a failed drop changed what is shown")
            try s.key("space")
            #expect(Events.waitFor(s.log, "paused", index: 0) != nil, "the window stopped answering after a failed drop")
        }
    }
}
