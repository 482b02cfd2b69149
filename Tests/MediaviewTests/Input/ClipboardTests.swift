import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Ctrl+V with what `xclip` put on the CLIPBOARD, as a file manager or browser puts it.
    @Suite struct Clipboard {
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

        private func paste(_ s: RunningViewer) throws {
            try s.key("ctrl+v")
        }

        private func waitForLines(_ s: RunningViewer, _ n: Int) -> [String] {
            let start = Date()
            while lines(s.run.stderr).count < n && Date().timeIntervalSince(start) < 8 { usleep(50_000) }
            return lines(s.run.stderr)
        }

        /// A file manager's copied file plays at once.
        @Test func pastesAFileList() throws {
            let s = try RunningViewer([try Fixtures.solidVideo("red", seconds: 20)], until: "first_frame")
            let clip = try own(Data("file://\(try Fixtures.solidImage("blue"))\r\n".utf8), type: "text/uri-list")
            defer { kill(clip.processIdentifier, SIGKILL); clip.waitUntilExit() }
            try paste(s)
            #expect(s.shows(RGB.blue), "the pasted file is not on screen; stderr: \(s.run.stderr)")
        }

        /// A link copied from a browser (plain UTF-8 text) plays, fetched from the web.
        @Test func pastesALink() throws {
            let s = try RunningViewer([try Fixtures.solidVideo("red", seconds: 20)], until: "first_frame")
            let root = try TestEnvironment.httpRoot, base = try TestEnvironment.http
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("blue"), toPath: root + "/pasted-blue.png")
            defer { try? FileManager.default.removeItem(atPath: root + "/pasted-blue.png") }
            let clip = try own(Data("  \(base)/pasted-blue.png\n".utf8), type: "UTF8_STRING")
            defer { kill(clip.processIdentifier, SIGKILL); clip.waitUntilExit() }
            try paste(s)
            #expect(s.shows(RGB.blue), "the pasted link is not on screen; stderr: \(s.run.stderr)")
        }

        /// An empty clipboard, binary junk and 5 MiB of text: one line each, and what plays
        /// goes on.
        @Test func badClipboardsAreRefused() throws {
            let s = try RunningViewer([try Fixtures.solidVideo("red", seconds: 20)], until: "first_frame")
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
            #expect(s.shows(RGB.red), "a refused paste changed what is shown")
            #expect(s.run.process.isRunning)
        }

        /// Reads the clipboard as `type` with `xclip` into a file.
        private func read(_ type: String) throws -> Data {
            let out = try Scratch.directory("clipout") + "/out"
            let r = try Run.process("sh", ["-c", "xclip -o -selection clipboard -t \"$1\" > \"$2\"", "sh", type, out], timeout: 20)
            #expect(r.status == 0, "xclip -o -t \(type): \(r.stderr)")
            return FileManager.default.contents(atPath: out) ?? Data()
        }

        /// Raw RGB bytes of a picture file, decoded by ffmpeg, and its size.
        private func rgb(_ path: String) throws -> Data {
            let out = try Scratch.directory("rgb") + "/out.rgb"
            let r = try Run.process("ffmpeg", ["-loglevel", "error", "-y", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", out])
            #expect(r.status == 0, "\(r.stderr)")
            return FileManager.default.contents(atPath: out) ?? Data()
        }

        /// Waits until the clipboard offers `type`.
        private func offers(_ type: String) throws -> Bool {
            let start = Date()
            while Date().timeIntervalSince(start) < 10 {
                if try Run.process("xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"], timeout: 5).stdout
                    .split(separator: "\n").contains(Substring(type)) { return true }
                usleep(50_000)
            }
            return false
        }

        /// Ctrl+C on a 1600x1200 photo shown in a 320x240 window: the clipboard holds the
        /// picture at full size (sent in INCR chunks, it is megabytes), pixel for pixel, and
        /// the path as text; after another program copies something, that is what is there.
        @Test func copiesThePictureAtFullSize() throws {
            // Noise does not compress: megabytes of PNG.
            let photo = try Fixtures.make("noise-rgb-1600x1200.png", ["-f", "lavfi", "-i",
                                                                    "nullsrc=s=1600x1200,format=rgb24,geq=r='random(1)*255':g='random(2)*255':b='random(3)*255'",
                                                                    "-frames:v", "1"])
            let s = try RunningViewer([photo], until: "first_frame")
            try s.key("ctrl+c")
            #expect(try offers("image/png"), "the clipboard never offered image/png; stderr: \(s.run.stderr)")
            let png = try read("image/png")
            #expect(png.count > ClipboardChunk.size, "the PNG is too small to need INCR: \(png.count) bytes")
            let copied = try Scratch.directory("copied") + "/copied.png"
            try png.write(to: URL(fileURLWithPath: copied))
            let (a, b) = (try rgb(copied), try rgb(photo))
            #expect(a.count == 1600 * 1200 * 3 && a == b, "the copied picture differs from the photo")
            #expect(String(decoding: try read("UTF8_STRING"), as: UTF8.self) == photo)
            let other = try own(Data("someone else".utf8), type: "UTF8_STRING")
            defer { kill(other.processIdentifier, SIGKILL); other.waitUntilExit() }
            #expect(String(decoding: try read("UTF8_STRING"), as: UTF8.self) == "someone else")
            #expect(s.run.process.isRunning && s.run.stderr.isEmpty, "\(s.run.stderr)")
        }

        /// A video's current frame is what is copied, at the video's own size.
        @Test func copiesAVideoFrame() throws {
            let s = try RunningViewer([try Fixtures.solidVideo("blue", width: 640, height: 360, seconds: 20)], until: "first_frame")
            try s.key("ctrl+c")
            #expect(try offers("image/png"))
            let copied = try Scratch.directory("copied") + "/frame.png"
            try read("image/png").write(to: URL(fileURLWithPath: copied))
            let pixels = try rgb(copied)
            #expect(pixels.count == 640 * 360 * 3, "copied \(pixels.count) bytes")
            let mid = (180 * 640 + 320) * 3
            #expect(pixels.count > mid + 2 && pixels[mid] < 40 && pixels[mid + 1] < 40 && pixels[mid + 2] > 200)
        }
    }
}

/// The chunk size above which the program sends a copied picture with INCR (256 KiB).
enum ClipboardChunk { static let size = 256 << 10 }
