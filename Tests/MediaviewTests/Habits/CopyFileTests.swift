import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Ctrl+C on a photo puts the file on the clipboard as a file manager wants it, and
    /// says on screen what it copied.
    @Suite struct CopyFile {
        private func read(_ type: String) throws -> String {
            let r = try Run.process("xclip", ["-o", "-selection", "clipboard", "-t", type], timeout: 20)
            #expect(r.status == 0, "xclip -o -t \(type): \(r.stderr)")
            return r.stdout
        }

        private func offers(_ type: String) throws -> Bool {
            let start = Date()
            while Date().timeIntervalSince(start) < 10 {
                if try Run.process("xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"], timeout: 5).stdout
                    .split(separator: "\n").contains(Substring(type)) { return true }
                usleep(50_000)
            }
            return false
        }

        @Test func copiesTheFileForAFileManagerAndSaysSo() throws {
            let dir = try Scratch.directory("copyfile") + "/my photos"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let path = dir + "/red é.png"
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("red"), toPath: path)
            let v = try RunningViewer([path], until: "first_frame")
            #expect(v.shows(RGB.red))
            #expect(v.window.grab(v.probe).fraction(matching: 0xFFFFFF, tolerance: 40) == 0, "white before copying")
            try v.key("ctrl+c")
            #expect(try offers("text/uri-list"), "no text/uri-list on the clipboard; stderr: \(v.run.stderr)")
            let encoded = dir.split(separator: "/").map { $0.replacingOccurrences(of: " ", with: "%20") }.joined(separator: "/")
            let uri = "file:///" + encoded + "/red%20%C3%A9.png"
            #expect(try read("text/uri-list") == uri + "\r\n")
            #expect(try read("x-special/gnome-copied-files") == "copy\n" + uri)
            #expect(try read("UTF8_STRING") == path, "the path as text is still there")
            // The message: white text over the red picture.
            let said = v.window.waitFor(v.probe, timeout: 5) { $0.fraction(matching: 0xFFFFFF, tolerance: 40) > 0.002 }
            #expect(said != nil, "no message said what was copied")
            try quit(v)
            #expect(v.run.finish(timeout: 5)?.status == 0)
        }
    }
}
