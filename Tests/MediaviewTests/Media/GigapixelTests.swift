import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// A JPEG twice the default pixel budget: shown fitted within the budget's memory, and
    /// at 1:1 its real pixels, decoded for the part on screen only.
    @Suite struct Gigapixel {
        /// The largest difference of one channel's mean over `block`-pixel squares, and the
        /// mean absolute difference per channel, between the grab and FFmpeg's BGRA bytes.
        static func difference(_ img: Image, _ reference: [UInt8], block: Int) -> (blocks: Double, pixels: Double) {
            var worst = 0.0, total = 0.0
            for by in stride(from: 0, to: img.height - block + 1, by: block) {
                for bx in stride(from: 0, to: img.width - block + 1, by: block) {
                    var sums = [Double](repeating: 0, count: 6)
                    for y in by..<(by + block) {
                        for x in bx..<(bx + block) {
                            let p = img.pixel(x, y), i = (y * img.width + x) * 4
                            let shown = [Double(p & 0xFF), Double(p >> 8 & 0xFF), Double(p >> 16 & 0xFF)]
                            for c in 0..<3 {
                                sums[c] += shown[c]
                                sums[c + 3] += Double(reference[i + c])
                                total += abs(shown[c] - Double(reference[i + c]))
                            }
                        }
                    }
                    for c in 0..<3 { worst = max(worst, abs(sums[c] - sums[c + 3]) / Double(block * block)) }
                }
            }
            return (worst, total / Double(img.width * img.height * 3))
        }

        /// The program's window once it shows `fitted` (BGRA, the window's size): the file's
        /// picture fitted, within a few levels over 32-pixel squares.
        static func fittedWindow(_ run: Launched, _ probe: ScreenProbe, _ fitted: [UInt8]) throws -> ProgramWindow {
            let window = try #require(ProgramWindow.wait(probe, of: run, timeout: 30), "no window; stderr: \(run.stderr)")
            var seen = (blocks: 0.0, pixels: 0.0)
            let shown = window.waitFor(probe, timeout: 30) { img in
                seen = Self.difference(img, fitted, block: 32)
                return seen.blocks < 8
            }
            try #require(shown != nil, "the fitted picture is not the file's: \(seen); stderr: \(run.stderr)")
            return window
        }

        static func peakMiB(_ pid: Int32) -> Double {
            Double(HostileFolders.memoryKiB(pid, "VmHWM") ?? .max) / 1024
        }

        /// Decoded in the sandboxed worker (auto) and in the viewer itself (off).
        @Test(arguments: ["auto", "off"])
        func aPictureOverTheBudgetOpensFittedAndShowsItsPixelsAtOneToOne(sandbox: String) throws {
            let path = try Fixtures.gigapixelJPEG()
            let fitted = try Fixtures.ffmpegBGRA(path, lowres: 3, filter: "scale=640:320:flags=area", width: 640, height: 320)
            // 1:1 centres the picture: the window's corner is at (9680, 4840) of the file.
            let centre = try Fixtures.ffmpegBGRA(path, filter: "crop=640:320:9680:4840", width: 640, height: 320)
            let probe = try ScreenProbe()
            let run = try Launched(["--sandbox", sandbox, "--windowed", "--geometry", "640x320+0+0", "--no-audio", path])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            let window = try Self.fittedWindow(run, probe, fitted)
            var seen = (blocks: 0.0, pixels: 0.0)
            #expect(Self.peakMiB(run.pid) < 400, "opening took \(Self.peakMiB(run.pid)) MiB at peak")

            _ = try xdotool(["key", "--window", String(window.id), "ctrl+0"])
            let pressed = Date()
            // The blown-up eighth is blurred, 3 levels off on average; the decoded tiles are
            // the file's own grain, within 1 (FFmpeg and libjpeg upsample chroma differently).
            let sharp = window.waitFor(probe, timeout: 20) { img in
                seen = Self.difference(img, centre, block: 16)
                return seen.blocks < 12 && seen.pixels < 1.8
            }
            #expect(sharp != nil, "1:1 does not show the file's pixels: \(seen); stderr: \(run.stderr)")
            // Not asserted (timings belong to the bench): what the log of a run can tell.
            print("gigapixel: 1:1 sharp on screen \(Int(Date().timeIntervalSince(pressed) * 1000)) ms after the key, \(seen)")
            #expect(Self.peakMiB(run.pid) < 400, "1:1 took \(Self.peakMiB(run.pid)) MiB at peak")

            // Alt+Left 15 times looks 600 pixels (15 steps of 40) left of the centre: a column
            // of tiles that was not on screen before.
            let left = try Fixtures.ffmpegBGRA(path, filter: "crop=640:320:9080:4840", width: 640, height: 320)
            _ = try xdotool(["key", "--window", String(window.id), "--repeat", "15", "--delay", "10", "alt+Left"])
            let panned = Date()
            let moved = window.waitFor(probe, timeout: 20) { img in
                seen = Self.difference(img, left, block: 16)
                return seen.blocks < 12 && seen.pixels < 1.8
            }
            #expect(moved != nil, "the panned view does not show the file's pixels: \(seen); stderr: \(run.stderr)")
            print("gigapixel: panned view sharp \(Int(Date().timeIntervalSince(panned) * 1000)) ms after the last key")
            #expect(Self.peakMiB(run.pid) < 400, "panning took \(Self.peakMiB(run.pid)) MiB at peak")
        }

        /// Zoomed in, a drag moves the picture with the pointer, as in eog and Loupe, instead of
        /// minimizing the view, each frame of it in the log, and shows the file's own pixels
        /// where it stops. Fitted again, the same drag minimizes as before.
        @Test func aDragPansAZoomedPictureAndOneFittedStillMinimizes() throws {
            let path = try Fixtures.gigapixelJPEG()
            let fitted = try Fixtures.ffmpegBGRA(path, lowres: 3, filter: "scale=640:320:flags=area", width: 640, height: 320)
            // At 1:1 the window's corner is at (9680, 4840); the picture dragged 300 right and
            // 100 down shows what lay left of and above it.
            let dragged = try Fixtures.ffmpegBGRA(path, filter: "crop=640:320:9380:4740", width: 640, height: 320)
            let log = try Scratch.directory("gigapixel-drag") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "640x320+0+0", "--no-audio", "--events", log, path])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            let window = try Self.fittedWindow(run, probe, fitted)
            _ = try xdotool(["key", "--window", String(window.id), "ctrl+0"])
            try #require(Events.waitFor(log, "detail_sharp", index: 0, timeout: 20) != nil, "1:1 never sharp; stderr: \(run.stderr)")

            func drag(by d: (Int, Int)) throws {
                _ = try xdotool(["mousemove", "200", "150", "mousedown", "1"])
                for i in 1...10 {
                    _ = try xdotool(["mousemove", "\(200 + d.0 * i / 10)", "\(150 + d.1 * i / 10)"])
                    usleep(20_000)
                }
                _ = try xdotool(["mouseup", "1"])
            }
            try drag(by: (300, 100))
            var seen = (blocks: 0.0, pixels: 0.0)
            let moved = window.waitFor(probe, timeout: 20) { img in
                seen = Self.difference(img, dragged, block: 16)
                return seen.blocks < 12 && seen.pixels < 1.8
            }
            #expect(moved != nil, "the dragged view does not show the file's pixels there: \(seen); stderr: \(run.stderr)")
            let names = Events.names(try Events.read(log))
            #expect(names.filter { $0 == "panned" }.count >= 3, "the drag was not drawn as it went: \(names)")
            #expect(!names.contains("will_change_minimization"), "the drag minimized the zoomed view")

            // Fitted again: the same downward drag minimizes the view.
            _ = try xdotool(["key", "--window", String(window.id), "ctrl+0"])
            #expect(window.waitFor(probe, timeout: 20) { Self.difference($0, fitted, block: 32).blocks < 8 } != nil,
                    "ctrl+0 did not fit the picture again")
            try drag(by: (0, 150))
            #expect(Events.waitFor(log, "did_end_minimizing", index: 0, timeout: 10) != nil,
                    "a drag on the fitted picture did not minimize it")
            #expect(lines(run.stderr).isEmpty, "stderr: \(run.stderr)")
        }

        /// A PNG or TIFF over the budget (a small budget, so the fixture is quick to make; the
        /// path is the one a 200 MP scan takes): shown fitted from one pass over its rows, and
        /// at 1:1, and panned, the file's own pixels from the pyramid that a second pass built.
        @Test(arguments: [("large-rgb.png", "auto"), ("large-strips-lzw.tif", "auto"), ("large-rgb-deflate.tif", "off")])
        func aPNGOrTIFFOverTheBudgetOpensFittedAndShowsItsPixelsAtOneToOne(file: String, sandbox: String) throws {
            let layout = try #require((Fixtures.largePNGs + Fixtures.largeTIFFs).first { $0.name == file })
            let path = try layout.path()
            let fitted = try Fixtures.ffmpegBGRA(try layout.reference(), filter: "scale=640:320:flags=area", width: 640, height: 320)
            let full = try Fixtures.ffmpegBGRA(try layout.reference(), filter: "null", width: 2001, height: 1001)
            let probe = try ScreenProbe()
            let run = try Launched(["--sandbox", sandbox, "--windowed", "--geometry", "640x320+0+0", "--no-audio",
                                    "--max-pixels", "1000000", path])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            let window = try Self.fittedWindow(run, probe, fitted)
            var seen = (blocks: 0.0, pixels: 0.0)

            // 1:1 centres the picture: its corner is half a pixel from (680, 340), either way.
            func sharp(atX x: Int) -> Bool {
                let wanted = [(x, 340), (x + 1, 340), (x, 341), (x + 1, 341)].map {
                    Fixtures.crop(full, width: 2001, x: $0.0, y: $0.1, w: 640, h: 320)
                }
                return window.waitFor(probe, timeout: 20) { img in
                    seen = wanted.map { Self.difference(img, $0, block: 16) }.min { $0.pixels < $1.pixels }!
                    return seen.blocks < 1 && seen.pixels < 0.5
                } != nil
            }
            _ = try xdotool(["key", "--window", String(window.id), "ctrl+0"])
            #expect(sharp(atX: 680), "1:1 does not show the file's pixels: \(seen); stderr: \(run.stderr)")
            // Looking 600 pixels to the left: tiles that were not on screen before.
            _ = try xdotool(["key", "--window", String(window.id), "--repeat", "15", "--delay", "10", "alt+Left"])
            #expect(sharp(atX: 80), "the panned view does not show the file's pixels: \(seen); stderr: \(run.stderr)")
            #expect(lines(run.stderr).isEmpty, "stderr: \(run.stderr)")
        }

        /// A test-only name makes the tiles' worker abort as it opens the file, as a crafted
        /// file breaking libjpeg or lcms2 there would: the zoomed view keeps the fitted
        /// picture blown up, says so in one line, and the program goes on.
        @Test func aZoomWhoseDecoderCrashesKeepsTheFittedPictureAndSaysSoOnce() throws {
            let dir = try Scratch.directory("gigapixel-crash")
            let path = dir + "/panorama worker-crashes.jpg"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: try Fixtures.gigapixelJPEG())
            let centre = try Fixtures.ffmpegBGRA(try Fixtures.gigapixelJPEG(), filter: "crop=640:320:9680:4840", width: 640, height: 320)
            let probe = try ScreenProbe()
            let log = dir + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "640x320+0+0", "--no-audio", "--events", log, path],
                                   environment: ["MEDIAVIEW_WORKER_TEST": "1"])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            try #require(Events.waitFor(log, "first_frame", index: 0, timeout: 30) != nil, "no picture; stderr: \(run.stderr)")
            _ = try xdotool(["key", "--window", String(window.id), "ctrl+0"])
            let line = "mediaview: panorama worker-crashes.jpg: zoom detail: the decoder stopped: crashed (SIGABRT)"
            let start = Date()
            while !run.stderr.contains(line) && Date().timeIntervalSince(start) < 20 { usleep(20_000) }
            #expect(lines(run.stderr) == [line], "stderr: \(run.stderr)")
            // The right place, blown up from the fitted picture (its edges blurred and a few
            // pixels off, as an eighth blown up is): away from the edges, the file's colours.
            func want(_ x: Int, _ y: Int) -> UInt32 {
                let i = (y * 640 + x) * 4
                return UInt32(centre[i + 2]) << 16 | UInt32(centre[i + 1]) << 8 | UInt32(centre[i])
            }
            let places = [(80, 80), (80, 240), (560, 80), (560, 240)]
            let shown = window.waitFor(probe, timeout: 10) { img in
                places.allSatisfy { Image.close(img.pixel($0.0, $0.1), want($0.0, $0.1), tolerance: 40) }
            }
            #expect(shown != nil, "1:1 does not show the centre of the picture")
            try pressQuit(on: window.id)
            let ended = try #require(run.finish(timeout: 10), "the program did not quit")
            #expect(ended.status == 0 && lines(ended.stderr) == [line], "stderr: \(ended.stderr)")
        }

        /// libjpeg fills a bomb's missing data with grey: it may show, or fail with one line,
        /// but it ends on its own and never takes more than the budget's memory.
        @Test func aBombClaimingGigapixelsStaysWithinTheBudget() throws {
            let path = try Fixtures.jpegBomb(width: 60000, height: 60000, progressive: false)
            let time = try Scratch.directory("bomb") + "/time"
            let run = try Launched(["--autoexit", "--image-duration", "0.3", "--no-audio", path],
                                   wrapper: ["/usr/bin/time", "-f", "%M", "-o", time])
            let end = try #require(run.finish(timeout: 60), "the bomb did not end; stderr: \(run.stderr)")
            #expect(end.status == 0 || end.status == 1, "stderr: \(end.stderr)")
            #expect(lines(end.stderr).count <= 1, "\(lines(end.stderr))")
            let text = (try? String(contentsOfFile: time, encoding: .utf8)) ?? ""
            let kib = try #require(text.split(separator: "\n").last.flatMap { Int($0) }, "no peak from time: \(text)")
            #expect(kib < 400 * 1024, "the bomb took \(kib / 1024) MiB at peak")
        }
    }
}
