import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// `s` saves the picture at the media's own resolution as a PNG in the pictures folder,
    /// and says so on screen.
    @Suite struct Screenshot {
        /// A 640x480 picture, red on the left, blue on the right: bigger than the window, and
        /// lopsided, so size and orientation both show in the file.
        private func halves() throws -> String {
            try Fixtures.make("halves-640x480.png", ["-f", "lavfi", "-i", "color=c=red:s=320x480", "-f", "lavfi",
                                                    "-i", "color=c=blue:s=320x480", "-filter_complex", "hstack",
                                                    "-frames:v", "1"])
        }

        /// The PNG's size and the RGB of a pixel, decoded by ffmpeg.
        private func decode(_ path: String, _ x: Int, _ y: Int) throws -> (width: Int, height: Int, rgb: UInt32) {
            let probe = try Run.process("ffprobe", ["-v", "error", "-show_entries", "stream=width,height,codec_name",
                                                    "-of", "csv=p=0", path], timeout: 10)
            let f = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
            #expect(f.first == "png", "not a PNG: \(probe.stdout)")
            let (w, h) = (Int(f[1]) ?? 0, Int(f[2]) ?? 0)
            // Through a file: the text of stdout would mangle bytes that are not UTF-8.
            let out = path + ".\(x)-\(y).rgb"
            _ = try Run.process("ffmpeg", ["-v", "error", "-y", "-i", path, "-vf", "crop=1:1:\(x):\(y)", "-f", "rawvideo",
                                           "-pix_fmt", "rgb24", out], timeout: 10)
            let b = [UInt8](FileManager.default.contents(atPath: out) ?? Data())
            try? FileManager.default.removeItem(atPath: out)
            let rgb = b.count >= 3 ? UInt32(b[0]) << 16 | UInt32(b[1]) << 8 | UInt32(b[2]) : 0
            return (w, h, rgb)
        }

        @Test func aBigPhotoIsSavedAtItsFullSize() throws {
            // Shown in a small window, a big JPEG is decoded at an eighth of its size.
            let photo = try Fixtures.make("halves-2400x1600.jpg", ["-f", "lavfi", "-i", "color=c=red:s=1200x1600", "-f", "lavfi",
                                                                  "-i", "color=c=blue:s=1200x1600", "-filter_complex", "hstack",
                                                                  "-frames:v", "1", "-q:v", "3"])
            let pictures = try Scratch.directory("pictures")
            let log = try Scratch.directory("shot") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--events", log, photo],
                                   environment: ["XDG_PICTURES_DIR": pictures])
            let window = try #require(ProgramWindow.wait(probe, of: run), "no window; stderr: \(run.stderr)")
            _ = window.waitFor(probe) { $0.matches(80, 120, RGB.red) }
            try xdotool(["key", "--window", String(window.id), "s"])
            let shot = try #require(Events.waitFor(log, "screenshot", timeout: 10), "no screenshot saved")
            let saved = try decode(try #require(shot["path"] as? String), 100, 800)
            #expect(saved.width == 2400 && saved.height == 1600, "saved at \(saved.width)x\(saved.height)")
            #expect(near(saved.rgb, 0xFF0000))
            kill(run.pid, SIGTERM)
            _ = run.finish(timeout: 5)
        }

        /// Within a few levels a channel: the picture goes through the scaler's colour conversion.
        private func near(_ a: UInt32, _ b: UInt32) -> Bool {
            [16, 8, 0].allSatisfy { abs(Int((a >> $0) & 0xFF) - Int((b >> $0) & 0xFF)) <= 8 }
        }

        @Test func sSavesTheFullPictureAndSaysSo() throws {
            let pictures = try Scratch.directory("pictures")
            let log = try Scratch.directory("shot") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--events", log, try halves()],
                                   environment: ["XDG_PICTURES_DIR": pictures])
            let window = try #require(ProgramWindow.wait(probe, of: run), "no window; stderr: \(run.stderr)")
            _ = window.waitFor(probe) { $0.matches(80, 120, RGB.red) }
            try xdotool(["key", "--window", String(window.id), "s"])
            let shot = try #require(Events.waitFor(log, "screenshot", timeout: 5), "no screenshot saved")
            let path = try #require(shot["path"] as? String)
            #expect(path.hasPrefix(pictures + "/mediaview-") && path.hasSuffix(".png"), "\(path)")
            let left = try decode(path, 10, 240)
            #expect(left.width == 640 && left.height == 480, "saved at \(left.width)x\(left.height), not the picture's size")
            let right = try decode(path, 630, 240)
            #expect(near(left.rgb, 0xFF0000) && near(right.rgb, 0x0000FF),
                    "colours or sides are wrong: \(String(left.rgb, radix: 16)) \(String(right.rgb, radix: 16))")
            // The message over the red half, then gone.
            #expect(window.waitFor(probe, timeout: 2) { !$0.matches(24, 24, RGB.red, tolerance: 40) } != nil, "no message on screen")

            // Turned by the user, the file is turned too; a second shot in the same second gets its own name.
            try xdotool(["key", "--window", String(window.id), "r"])
            try xdotool(["key", "--window", String(window.id), "s"])
            let start = Date()
            var second: String?
            while second == nil && Date().timeIntervalSince(start) < 5 {
                second = try Events.read(log).filter { $0["event"] as? String == "screenshot" }.dropFirst().first?["path"] as? String
                usleep(50_000)
            }
            let turned = try decode(try #require(second, "no second screenshot"), 240, 10)
            #expect(turned.width == 480 && turned.height == 640 && near(turned.rgb, 0xFF0000), "turned clockwise, red is on top")
            #expect(second != path)
            try pressQuit(on: window.id)
            #expect(run.finish(timeout: 5)?.status == 0)
        }
    }
}
