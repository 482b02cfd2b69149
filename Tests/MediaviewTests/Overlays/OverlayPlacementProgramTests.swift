import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The overlays as a person sees them in a real 640x360 window: a message below the
    /// title rather than over it, subtitles lifted above the track while it shows, a bar that
    /// thickens under the pointer, and controls that stay while the pointer rests on them.
    @Suite struct OverlayPlacementProgramTests {
        struct Viewer {
            let run: Launched
            let window: ProgramWindow
            let probe: ScreenProbe
            let log: String

            func key(_ name: String) throws { try xdotool(["key", "--window", String(window.id), name]) }

            func stop() {
                kill(run.pid, SIGTERM)
                _ = run.finish(timeout: 5)
            }
        }

        /// Starts windowed at 640x360+0+0 with the pointer away from the window.
        func start(_ args: [String]) throws -> Viewer {
            try xdotool(["mousemove", "1000", "650"])
            let log = try Scratch.directory("overlays") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "640x360+0+0", "--no-audio", "--events", log] + args)
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            try #require(Events.waitFor(log, "first_frame", index: 0) != nil, "never showed; stderr: \(run.stderr)")
            return Viewer(run: run, window: window, probe: probe, log: log)
        }

        static func white(_ p: UInt32) -> Bool { (p >> 16) & 0xFF > 200 && (p >> 8) & 0xFF > 200 && p & 0xFF > 200 }

        /// Rows in `ys` holding white pixels in columns `xs`.
        static func whiteRows(_ img: Image, _ xs: Range<Int>, _ ys: Range<Int>) -> [Int] {
            ys.filter { y in xs.contains { white(img.pixel($0, y)) } }
        }

        @Test("A message shows below the title, both readable, not one over the other")
        func messageBelowTitle() throws {
            let clip = try Fixtures.solidVideo("blue", width: 640, height: 360, seconds: 10)
            let v = try start(["--no-autoplay", "--title", "HOLIDAY", clip])
            defer { v.stop() }
            try v.key("bracketright")
            // The title's glyphs in its band at the top, the message's glyphs in a dark box
            // below it: white in both row ranges, the message box's dark between them.
            let img = try #require(v.window.waitFor(v.probe) { img in
                !Self.whiteRows(img, 16..<300, 14..<44).isEmpty && !Self.whiteRows(img, 16..<300, 64..<104).isEmpty
            }, "title at the top and the message below it")
            let title = Self.whiteRows(img, 16..<300, 0..<60), message = Self.whiteRows(img, 16..<300, 60..<120)
            #expect((title.max() ?? 99) < (message.min() ?? 0), "title rows \(title), message rows \(message)")
            #expect(title.count >= 8 && message.count >= 8, "title rows \(title), message rows \(message)")
        }

        @Test("Subtitles rise above the track while the controls show, and go back down when they hide")
        func subtitlesLift() throws {
            let srt = try Fixtures.srt("lift-white-30s.srt", [Fixtures.Cue(0, 30, Fixtures.blocks())])
            let video = try Fixtures.withSubtitles(try Fixtures.solidVideo("blue", width: 640, height: 360, seconds: 30), srt,
                                                   codec: "srt", ext: "mkv", name: "blue-30s-lift-sub")
            let v = try start([video])
            defer { v.stop() }
            // Middle columns: the subtitle's blocks, away from the time labels at the sides.
            func blockRows(_ img: Image) -> [Int] { Self.whiteRows(img, 240..<400, 0..<360) }
            let low = try #require(v.window.waitFor(v.probe, timeout: 10) { img in
                let rows = blockRows(img)
                return rows.count > 20 && (rows.max() ?? 0) > 300
            }, "playing with the controls hidden, the line sits at the bottom")
            try xdotool(["mousemove", "320", "150"])
            let lifted = try #require(v.window.waitFor(v.probe) { img in
                let rows = blockRows(img)
                return rows.count > 20 && (rows.max() ?? 360) < 250
            }, "with the controls showing, the line rose above them")
            // The track's band starts 52 px above the bottom, its label row and name line above that.
            #expect((blockRows(lifted).max() ?? 360) < 360 - 52 - 30, "\(blockRows(lifted))")
            #expect(blockRows(low).count - blockRows(lifted).count < 6, "the whole line moved, not cut")
            try xdotool(["mousemove", "1000", "650"])
            #expect(v.window.waitFor(v.probe, timeout: 8) { (blockRows($0).max() ?? 0) > 300 } != nil,
                    "the controls hid and the line went back down")
        }

        /// Rows of the bar in column `x`: red lightened by the bar's white.
        static func barRows(_ img: Image, x: Int) -> [Int] {
            (250..<360).filter { y in
                let p = img.pixel(x, y)
                return (p >> 16) & 0xFF > 100 && (p >> 8) & 0xFF > 40 && (p >> 8) & 0xFF < 200
            }
        }

        @Test("The track's bar is 4 px at rest and 8 px under the pointer, with time labels at least 10 px tall")
        func trackThickens() throws {
            let clip = try Fixtures.solidVideo("red", width: 640, height: 360, seconds: 10)
            let v = try start(["--no-autoplay", clip])
            defer { v.stop() }
            let rest = try #require(v.window.waitFor(v.probe) { Self.barRows($0, x: 200).count >= 3 }, "the bar at rest")
            #expect(Self.barRows(rest, x: 200).count == 4, "\(Self.barRows(rest, x: 200))")
            let label = Self.whiteRows(rest, 16..<80, 300..<360)
            #expect(label.count >= 10, "the time label's glyph rows: \(label)")
            try xdotool(["mousemove", "400", "330"])
            let hover = try #require(v.window.waitFor(v.probe) { Self.barRows($0, x: 200).count >= 7 }, "thicker under the pointer")
            #expect(Self.barRows(hover, x: 200).count == 8, "\(Self.barRows(hover, x: 200))")
        }

        @Test("The controls stay while the pointer rests on the track, and hide after the idle time elsewhere")
        func controlsStayOnTrack() throws {
            let clip = try Fixtures.solidVideo("red", width: 640, height: 360, seconds: 30)
            let v = try start([clip])
            defer { v.stop() }
            try xdotool(["mousemove", "400", "330"])
            #expect(v.window.waitFor(v.probe) { Self.barRows($0, x: 200).count >= 7 } != nil, "the hovered bar shows")
            // Every look for 4 s, past the 2.5 s the controls wait after the last motion.
            let end = Date().addingTimeInterval(4)
            var looks = 0
            while Date() < end {
                let img = v.window.grab(v.probe)
                looks += 1
                guard Self.barRows(img, x: 200).count >= 7, !Self.whiteRows(img, 330..<480, 280..<306).isEmpty else {
                    Issue.record("the track or its time label went away with the pointer resting on the track")
                    break
                }
                usleep(100_000)
            }
            #expect(looks > 10)
            try xdotool(["mousemove", "320", "120"])
            #expect(v.window.waitFor(v.probe, timeout: 8) { Self.barRows($0, x: 200).isEmpty } != nil,
                    "off the controls they hide after the idle time")
        }
    }
}
