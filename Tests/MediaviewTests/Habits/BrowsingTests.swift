import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Moving through a folder of photos as in any photo viewer: the arrows, Page Up/Down,
    /// Space/Backspace and the wheel step on stills (and keep seeking on video), the ends of
    /// the queue say so instead of closing the program, and the previous/next buttons at
    /// the window's edges step on a click.
    @Suite struct Browsing {
        /// Three stills, red, lime and blue, in a 320x240 window.
        private func threeStills(extra: [String] = []) throws -> RunningViewer {
            let media = [try Fixtures.solidImage("red"), try Fixtures.solidImage("lime"), try Fixtures.solidImage("blue")]
            return try RunningViewer(extra + media, until: "presented")
        }

        /// Presses `key` and waits for item `index` to be presented for the `nth` time and
        /// its colour to be at the centre.
        private func step(_ v: RunningViewer, _ key: String, to index: Int, nth: Int = 1, shows rgb: UInt32) throws {
            if key.hasPrefix("click") {
                try xdotool(["mousemove", String(v.window.x + 160), String(v.window.y + 120), "click", String(key.dropFirst(5))])
            } else {
                try v.key(key)
            }
            let start = Date()
            while presentations(v, index) < nth && Date().timeIntervalSince(start) < 5 { usleep(30_000) }
            #expect(presentations(v, index) == nth, "\(key) did not present item \(index): \(Events.names((try? Events.read(v.log)) ?? []))")
            #expect(v.shows(rgb), "\(key): item \(index) is not on screen")
        }

        private func presentations(_ v: RunningViewer, _ index: Int) -> Int {
            Events.names((try? Events.read(v.log)) ?? [], index: index).filter { $0 == "presented" }.count
        }

        @Test func photoViewerKeysAndTheWheelStepThroughStills() throws {
            let v = try threeStills()
            #expect(v.shows(RGB.red))
            try step(v, "Right", to: 1, shows: 0x00FF00)
            try step(v, "Down", to: 2, shows: RGB.blue)
            try step(v, "Left", to: 1, nth: 2, shows: 0x00FF00)
            try step(v, "Up", to: 0, nth: 2, shows: RGB.red)
            try step(v, "Next", to: 1, nth: 3, shows: 0x00FF00)
            try step(v, "Prior", to: 0, nth: 3, shows: RGB.red)
            try step(v, "space", to: 1, nth: 4, shows: 0x00FF00)
            try step(v, "BackSpace", to: 0, nth: 4, shows: RGB.red)
            // Wheel down (button 5) goes on, wheel up (button 4) goes back.
            try step(v, "click5", to: 1, nth: 5, shows: 0x00FF00)
            try step(v, "click4", to: 0, nth: 5, shows: RGB.red)
            try quit(v)
            #expect(v.run.finish(timeout: 5)?.status == 0)
        }

        /// On a video the same keys keep their player meaning: Right seeks, the item stays.
        @Test func onAVideoTheArrowsStillSeek() throws {
            // Each second of the video has its own colour; the sixth is magenta.
            let v = try RunningViewer([try Fixtures.colourSeconds(), try Fixtures.solidImage("red")], until: "played")
            try v.key("Right")
            #expect(v.shows(0xFF00FF), "Right did not seek 5 s into the video")
            try v.key("space")
            #expect(Events.waitFor(v.log, "paused", index: 0, timeout: 5) != nil, "space did not pause the video")
            #expect(presentations(v, 1) == 0, "the arrow moved on from a video")
            try quit(v)
            #expect(v.run.finish(timeout: 5)?.status == 0)
        }

        /// `n` on the last item and `p` on the first leave the program running on that item;
        /// only `q` ends it, with status 0.
        @Test func theEndsOfTheQueueDoNotCloseTheProgram() throws {
            let v = try RunningViewer([try Fixtures.solidImage("red"), try Fixtures.solidImage("blue")])
            try v.key("p")
            try step(v, "n", to: 1, shows: RGB.blue)
            try v.key("n")
            try v.key("Right")
            // Still running, still on the last item: going back works.
            try step(v, "p", to: 0, nth: 2, shows: RGB.red)
            #expect(v.run.process.isRunning)
            let names = Events.names(try Events.read(v.log))
            #expect(!names.contains("finished") && names.filter { $0 == "dismissed" }.count == 2, "\(names)")
            try quit(v)
            let end = try #require(v.run.finish(timeout: 5), "q did not quit")
            #expect(end.status == 0, "stderr: \(end.stderr)")
        }

        /// A script that runs with --autoexit still ends when it steps past the last item.
        @Test func withAutoexitStepingPastTheEndQuits() throws {
            let v = try RunningViewer(["--autoexit", "--image-duration", "30", try Fixtures.solidImage("red")])
            // The window goes on the press, so xdotool's release meets a BadWindow.
            _ = try Run.process("xdotool", ["key", "--window", String(v.window.id), "n"], timeout: 10)
            _ = try Run.process("xdotool", ["keyup", "n"], timeout: 10)
            let end = try #require(v.run.finish(timeout: 5), "n on the last item with --autoexit did not end the program")
            #expect(end.status == 0, "stderr: \(end.stderr)")
        }

        /// Only a button with an item to step to shows, as in eog and Loupe: at the first of
        /// three, next alone; in the middle, both; at the last, previous alone.
        @Test func edgeButtonsShowOnlyWhereThereIsAnItem() throws {
            let media = [try Fixtures.solidImage("red"), try Fixtures.solidImage("lime"), try Fixtures.solidImage("blue")]
            let v = try RunningViewer(["--fit", "always"] + media)
            #expect(v.shows(RGB.red))
            /// Whether each edge's button shows over the picture of colour `rgb`: its disc
            /// darkens the picture 14 px inside its centre.
            func buttons(over rgb: UInt32) -> (previous: Bool, next: Bool)? {
                let cy = v.window.y + 120
                _ = try? xdotool(["mousemove", String(v.window.x + 160), String(cy), "mousemove", String(v.window.x + 170), String(cy)])
                var seen: (Bool, Bool)?
                // The controls show for a while after the motion: read the screen once they do.
                _ = v.window.waitFor(v.probe, timeout: 5) { img in
                    let previous = !img.matches(16 + 24 + 14, 120 + 14, rgb, tolerance: 40)
                    let next = !img.matches(320 - 16 - 24 + 14, 120 + 14, rgb, tolerance: 40)
                    seen = (previous, next)
                    return previous || next
                }
                return seen
            }
            let first = buttons(over: RGB.red)
            #expect(first.map { !$0.previous && $0.next } == true, "at the first item: \(String(describing: first))")
            try xdotool(["key", "--window", String(v.window.id), "Right"])
            #expect(v.shows(RGB.lime))
            let middle = buttons(over: RGB.lime)
            #expect(middle.map { $0.previous && $0.next } == true, "in the middle: \(String(describing: middle))")
            try xdotool(["key", "--window", String(v.window.id), "Right"])
            #expect(v.shows(RGB.blue))
            let last = buttons(over: RGB.blue)
            #expect(last.map { $0.previous && !$0.next } == true, "at the last item: \(String(describing: last))")
            try quit(v)
            #expect(v.run.finish(timeout: 5)?.status == 0)
        }

        /// Moving the pointer shows a next button at the right edge; a click on it steps,
        /// and two quick clicks are two steps, not fullscreen.
        @Test func edgeButtonsStepOnAClick() throws {
            let media = [try Fixtures.solidImage("red"), try Fixtures.solidImage("lime"), try Fixtures.solidImage("blue")]
            let v = try RunningViewer(["--fit", "always"] + media)
            #expect(v.shows(RGB.red))
            // The next button: a 48 px disc 16 px from the right edge, vertically centred.
            let bx = v.window.x + 320 - 16 - 24, by = v.window.y + 120
            try xdotool(["mousemove", String(bx - 30), String(by), "mousemove", String(bx), String(by)])
            let shown = v.window.waitFor(v.probe, timeout: 5) { img in
                // The disc darkens the red picture; its chevron is white.
                !img.matches(320 - 16 - 24 + 14, 120 + 14, RGB.red, tolerance: 40)
                    && img.fraction(matching: 0xFFFFFF, x: 320 - 16 - 40, y: 100, width: 40, height: 40, tolerance: 40) > 0.01
            }
            #expect(shown != nil, "no next button at the right edge")
            #expect(v.window.grab(v.probe).matches(40, 200, RGB.red), "the picture away from the edges stays clear")
            try xdotool(["click", "--repeat", "2", "--delay", "120", "1"])
            let start = Date()
            while presentations(v, 2) < 1 && Date().timeIntervalSince(start) < 5 { usleep(30_000) }
            #expect(presentations(v, 2) == 1, "two clicks on next did not reach item 2")
            #expect(v.shows(RGB.blue))
            #expect(v.probe.geometry(of: v.window.id).map { $0.width == 320 } == true, "the clicks made the window fullscreen")
            try quit(v)
            #expect(v.run.finish(timeout: 5)?.status == 0)
        }
    }
}

/// Presses `q` on a running viewer. The window is gone before xdotool sends the release,
/// so its BadWindow is expected; the release is sent again to whatever has the focus, so
/// the server's auto-repeat does not go on "pressing" q into later programs.
func quit(_ v: RunningViewer) throws {
    _ = try Run.process("xdotool", ["key", "--window", String(v.window.id), "q"], timeout: 10)
    _ = try Run.process("xdotool", ["keyup", "q"], timeout: 10)
}
