import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The thumbnail window's own controls and manners, driven as a user does: the skip
    /// buttons move the position, the volume slider and the wheel on the speaker set the
    /// volume, an item that ends while minimized stays on its last frame, and with
    /// `--minimize-on-blur` turning to another window makes the playing video the thumbnail.
    @Suite struct ThumbnailControlsProgramTests {
        struct Viewer {
            let run: Launched
            let client: SocketClient
            let probe: ScreenProbe
            let window: UInt
            let log: String

            func geometry() -> (x: Int, y: Int, width: Int, height: Int)? { probe.geometry(of: window) }

            /// A fresh request id each time: the client finds replies by id among all it received.
            func property(_ name: String) throws -> Any? {
                try client.request(["get_property", name], id: Int.random(in: 1...Int(Int32.max)))["data"]
            }

            /// Waits until `condition` holds for the property's value.
            func waitFor(_ name: String, timeout: Double = 5, _ condition: (Any?) -> Bool) throws -> Any? {
                let end = Date().addingTimeInterval(timeout)
                var value = try property(name)
                while !condition(value) && Date() < end {
                    usleep(50_000)
                    value = try property(name)
                }
                return value
            }

            func stop() {
                kill(run.pid, SIGTERM)
                _ = run.finish(timeout: 5)
            }
        }

        /// Starts fullscreen (1280x720) on `media` with a socket and an event log.
        func start(_ media: [String], _ args: [String] = []) throws -> Viewer {
            try xdotool(["mousemove", "100", "100"])
            let dir = try Scratch.directory("thumb-controls")
            let socket = dir + "/socket", log = dir + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--swipe-mode", "minimize", "--minimized-reset", "--input-ipc-server", socket,
                                    "--events", log] + args + media, environment: ["XDG_STATE_HOME": dir])
            var window: UInt?
            let end = Date().addingTimeInterval(10)
            while window == nil && Date() < end {
                usleep(50_000)
                window = probe.windows(className: "mediaview", pid: run.process.processIdentifier).first { probe.geometry(of: $0)?.width ?? 0 > 1000 }
            }
            let w = try #require(window, "no mediaview window; stderr: \(run.stderr)")
            try #require(Events.waitFor(log, "first_frame", index: 0) != nil, "never showed; stderr: \(run.stderr)")
            return Viewer(run: run, client: try SocketClient(path: socket), probe: probe, window: w, log: log)
        }

        /// Minimizes with the key; the thumbnail is 427x240 in the bottom-right corner.
        func minimize(_ v: Viewer) throws -> (x: Int, y: Int, width: Int, height: Int) {
            try xdotool(["key", "--window", "\(v.window)", "ctrl+Down"])
            let end = Date().addingTimeInterval(5)
            var g = v.geometry()
            while !(g?.width == 427 && g?.x == 1280 - 12 - 427) && Date() < end {
                usleep(50_000)
                g = v.geometry()
            }
            return try #require(g.flatMap { $0.width == 427 ? $0 : nil }, "did not minimize: \(String(describing: g))")
        }

        static func seconds(_ value: Any?) -> Double { value as? Double ?? -1 }

        /// Moves the pointer onto the thumbnail (above its middle button) and waits until its
        /// controls show over the green video, as a user waits to see them before clicking.
        func hover(_ v: Viewer, _ c: (x: Int, y: Int, width: Int, height: Int)) throws {
            try xdotool(["mousemove", "100", "100"])
            try xdotool(["mousemove", "\(c.x + 213)", "\(c.y + 60)"])
            let shown = v.probe.waitFor(timeout: 5) { !$0.matches(c.x + 267, c.y + 198, 0x008000, tolerance: 30) }
            try #require(shown != nil, "the thumbnail's controls never showed")
        }

        @Test("The thumbnail's skip buttons move the position 10 s forward and back")
        func skipButtons() throws {
            let clip = try Fixtures.solidVideo("green", width: 320, height: 180, seconds: 30)
            let v = try start([clip], ["--no-audio", "--no-autoplay"])
            defer { v.stop() }
            let c = try minimize(v)
            try hover(v, c)
            // Forward: right of the play button at the bottom centre, 36 px across (48 px button, 12 px gap).
            try xdotool(["mousemove", "\(c.x + 267)", "\(c.y + 198)", "click", "1"])
            let ahead = Self.seconds(try v.waitFor("time-pos") { Self.seconds($0) > 9 })
            #expect(ahead > 9 && ahead < 11, "after +10 s: \(ahead)")
            try hover(v, c)
            try xdotool(["mousemove", "\(c.x + 159)", "\(c.y + 198)", "click", "1"])
            let back = Self.seconds(try v.waitFor("time-pos") { Self.seconds($0) < 1 })
            #expect(back >= 0 && back < 1, "after -10 s: \(back)")
            #expect(v.geometry()?.width == 427, "clicks on the controls do not restore")
        }

        @Test("On the thumbnail, subtitles rise above the play row while its controls show")
        func thumbnailSubtitlesLift() throws {
            let srt = try Fixtures.srt("thumb-lift-white-30s.srt", [Fixtures.Cue(0, 30, Fixtures.blocks())])
            let video = try Fixtures.withSubtitles(try Fixtures.solidVideo("blue", width: 640, height: 360, seconds: 30), srt,
                                                   codec: "srt", ext: "mkv", name: "blue-30s-thumb-sub")
            let v = try start([video], ["--no-audio"])
            defer { v.stop() }
            let c = try minimize(v)
            try xdotool(["mousemove", "100", "100"])
            // The play row's top on a 240 px thumbnail at 1x: a 48 px button 18 px above the bottom.
            let row = c.y + 240 - 18 - 48
            // White rows between the top buttons and the bottom, across the picture.
            func above(_ img: Image) -> Int {
                OverlayPlacementProgramTests.whiteRows(img, (c.x + 40)..<(c.x + 387), (c.y + 60)..<row).count
            }
            func below(_ img: Image) -> Int {
                OverlayPlacementProgramTests.whiteRows(img, (c.x + 40)..<(c.x + 387), row..<(c.y + 240)).count
            }
            let low = v.probe.waitFor(timeout: 10) { below($0) > 8 && above($0) < 4 }
            #expect(low != nil, "without the controls the line sits at the bottom")
            try xdotool(["mousemove", "\(c.x + 213)", "\(c.y + 60)"])
            let lifted = v.probe.waitFor(timeout: 5) { above($0) > 8 }
            #expect(lifted != nil, "with the controls showing, the line rose above the play row")
        }

        @Test("The volume slider sets the volume where it is clicked, and the wheel on the speaker steps it")
        func volumeControl() throws {
            let clip = try Fixtures.solidVideo("green", width: 320, height: 180, seconds: 20, tone: 440)
            let v = try start([clip], ["--no-autoplay"])
            defer { v.stop() }
            let c = try minimize(v)
            try hover(v, c)
            // The slider: 64 px left of the speaker at the bottom right; a quarter of the way in.
            try xdotool(["mousemove", "\(c.x + 317 + 16)", "\(c.y + 204)", "click", "1"])
            let quarter = try v.waitFor("volume") { ($0 as? Double) == 25 }
            #expect(quarter as? Double == 25, "volume after the click: \(String(describing: quarter))")
            try hover(v, c)
            try xdotool(["mousemove", "\(c.x + 403)", "\(c.y + 204)"])
            try xdotool(["click", "4"])
            #expect(try v.waitFor("volume") { ($0 as? Double) == 30 } as? Double == 30, "one wheel step up")
            try xdotool(["click", "4"])
            let louder = try v.waitFor("volume") { ($0 as? Double) == 35 }
            #expect(louder as? Double == 35, "two wheel steps up: \(String(describing: louder))")
            #expect(v.geometry()?.width == 427, "the wheel over the speaker does not resize")
        }

        @Test("An item that ends while minimized stays on its last frame; restored, the queue moves on")
        func endedStays() throws {
            let red = try Fixtures.solidVideo("red", width: 320, height: 180, seconds: 2)
            let blue = try Fixtures.solidVideo("blue", width: 320, height: 180, seconds: 10)
            let v = try start([red, blue], ["--no-audio"])
            defer { v.stop() }
            let c = try minimize(v)
            try xdotool(["mousemove", "100", "100"])
            try #require(Events.waitFor(v.log, "finished", index: 0, timeout: 10) != nil, "the first item never finished")
            // For two seconds after the end: still the red thumbnail, and item 1 not presented.
            let end = Date().addingTimeInterval(2)
            while Date() < end {
                let img = v.probe.grab(x: c.x, y: c.y, width: c.width, height: c.height)
                #expect(img.matches(60, 60, 0xFF0000, tolerance: 40), "the last frame stays")
                #expect(Events.names(try Events.read(v.log), index: 1).contains("presented") == false, "no next item")
                usleep(200_000)
            }
            #expect(try v.property("minimized") as? Bool == true)
            try xdotool(["key", "--window", "\(v.window)", "ctrl+Up"])
            #expect(Events.waitFor(v.log, "presented", index: 1, timeout: 10) != nil, "restored, it continues as before")
        }

        @Test("With --minimize-on-blur a playing video becomes the thumbnail when another window takes the focus")
        func minimizeOnBlur() throws {
            let clip = try Fixtures.solidVideo("green", width: 320, height: 180, seconds: 30)
            let v = try start([clip], ["--no-audio", "--minimize-on-blur"])
            defer { v.stop() }
            let other = try ProbeWindow(x: 0, y: 0, width: 200, height: 200)
            try xdotool(["windowfocus", "\(other.id)"])
            let end = Date().addingTimeInterval(5)
            var g = v.geometry()
            // Until it is narrower than 1000: a frame of the shrinking animation may be 1000 wide.
            while (g?.width ?? 0) >= 1000 && Date() < end {
                usleep(50_000)
                g = v.geometry()
            }
            #expect((g?.width ?? 0) < 1000, "the player became the thumbnail: \(String(describing: g))")
            #expect(Events.waitFor(v.log, "did_end_minimizing", index: 0) != nil)
            #expect(try v.waitFor("minimized") { $0 as? Bool == true } as? Bool == true)
        }
    }
}
