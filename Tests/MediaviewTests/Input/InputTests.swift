import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Real X input from `xdotool` against the real window: keys from the default
    /// input.conf and a mouse click do what the bindings promise.
    @Suite struct Input {
        /// A running program with an event log, windowed at 640x360+0+0, playing its first item.
        private struct Session {
            let run: Launched
            let window: ProgramWindow
            let log: String
            let probe: ScreenProbe
        }

        private func start(_ media: [String], extra: [String] = []) throws -> Session {
            let dir = try Scratch.directory("input")
            let log = dir + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "640x360+0+0", "--no-audio", "--events", log]
                + extra + media)
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            // Input is only meaningful once the item plays and the picture is up.
            try #require(Events.waitFor(log, "played", index: 0) != nil, "item 0 never played; stderr: \(run.stderr)")
            _ = window.waitFor(probe) { !$0.matches($0.width / 2, $0.height / 2, RGB.black) }
            return Session(run: run, window: window, log: log, probe: probe)
        }

        private func key(_ s: Session, _ name: String) throws {
            try xdotool(["key", "--window", String(s.window.id), name])
        }

        /// Presses `q`, leaving no key down.
        private func quit(_ s: Session) throws {
            try pressQuit(on: s.window.id)
        }

        private func count(_ s: Session, _ event: String, index: Int = 0) throws -> Int {
            Events.names(try Events.read(s.log), index: index).filter { $0 == event }.count
        }

        /// Waits until item 0 logged `event` `n` times.
        private func waitCount(_ s: Session, _ event: String, _ n: Int) throws -> Bool {
            let start = Date()
            while try count(s, event) < n && Date().timeIntervalSince(start) < 5 { usleep(50_000) }
            return try count(s, event) == n
        }

        @Test func spacePausesAndResumes() throws {
            let s = try start([try Fixtures.solidVideo("blue", seconds: 10)])
            try key(s, "space")
            let paused = try #require(Events.waitFor(s.log, "paused", index: 0, timeout: 5), "space did not pause")
            // Paused means the position stands still: the play indicator appears and stays.
            let pos = paused["position"] as? Double ?? -1
            #expect(pos >= 0 && pos < 10, "paused at \(pos)")
            // The play indicator (60 px in a 360 px high window) appears in the centre.
            _ = try #require(s.window.waitFor(s.probe, timeout: 3) {
                $0.fraction(matching: RGB.theme, x: 270, y: 130, width: 100, height: 100, tolerance: 30) > 0.03
            }, "no play indicator while paused")
            try key(s, "space")
            let resumed = try waitCount(s, "played", 2)
            #expect(resumed, "space again should resume: \(Events.names((try? Events.read(s.log)) ?? []))")
            // Playing again: the indicator goes away.
            #expect(s.window.waitFor(s.probe, timeout: 3) {
                $0.fraction(matching: RGB.theme, x: 270, y: 130, width: 100, height: 100, tolerance: 30) < 0.001
            } != nil, "play indicator stayed after resuming")
            try quit(s)
            #expect(s.run.finish(timeout: 3)?.status == 0)
        }

        @Test func nGoesToTheNextItem() throws {
            let s = try start([try Fixtures.solidVideo("blue", seconds: 10), try Fixtures.solidImage("red")])
            try key(s, "n")
            try #require(Events.waitFor(s.log, "presented", index: 1, timeout: 5) != nil, "n did not present item 1")
            // The red image replaces the blue video on screen.
            #expect(s.window.waitFor(s.probe, timeout: 5) { $0.matches(320, 180, RGB.red) } != nil)
            let names = Events.names(try Events.read(s.log))
            let dismissed = names.firstIndex(of: "dismissed"), presented1 = names.lastIndex(of: "presented")
            #expect(dismissed != nil && presented1 != nil && dismissed! < presented1!, "\(names)")
            try quit(s)
            #expect(s.run.finish(timeout: 3)?.status == 0)
        }

        @Test func qQuitsPromptlyWithStatusZero() throws {
            let s = try start([try Fixtures.solidVideo("blue", seconds: 10)])
            let sent = Date()
            try quit(s)
            let end = try #require(s.run.finish(timeout: 5), "q did not quit")
            #expect(Date().timeIntervalSince(sent) < 2, "took \(Date().timeIntervalSince(sent)) s to quit")
            #expect(end.status == 0 && !end.bySignal, "status \(end.status); stderr: \(end.stderr)")
            // The log was closed properly: its last line is the exit record.
            let last = try Events.read(s.log).last
            #expect(last?["event"] as? String == "exit")
        }

        /// With no window manager the program itself resizes: `f` covers the screen, `f`
        /// again gives back the 640x360 window.
        @Test func fTogglesFullscreen() throws {
            let s = try start([try Fixtures.solidVideo("blue", seconds: 10)])
            let screen = s.probe.screenSize
            try key(s, "f")
            #expect(waitGeometry(s) { $0.width == screen.width && $0.height == screen.height && $0.x == 0 && $0.y == 0 },
                    "f did not make the window fullscreen")
            // The picture follows: 4:3 in 16:9 fullscreen leaves 160 px bars.
            #expect(s.probe.waitFor(timeout: 5) { $0.matches(640, 360, RGB.blue) && $0.matches(80, 360, RGB.black) } != nil)
            try key(s, "f")
            #expect(waitGeometry(s) { $0.width == 640 && $0.height == 360 && $0.x == 0 && $0.y == 0 },
                    "f again did not restore 640x360+0+0")
            try quit(s)
            #expect(s.run.finish(timeout: 3)?.status == 0)
        }

        private func waitGeometry(_ s: Session, _ ok: ((x: Int, y: Int, width: Int, height: Int)) -> Bool) -> Bool {
            let start = Date()
            repeat {
                if let g = s.probe.geometry(of: s.window.id), ok(g) { return true }
                usleep(50_000)
            } while Date().timeIntervalSince(start) < 5
            return false
        }

        /// A left click on the picture (not on the track) toggles pause, as the seed's tap.
        @Test func clickTogglesPause() throws {
            let s = try start([try Fixtures.solidVideo("blue", seconds: 10)])
            let cx = s.window.x + s.window.width / 2, cy = s.window.y + s.window.height / 2
            try xdotool(["mousemove", String(cx), String(cy), "click", "1"])
            try #require(Events.waitFor(s.log, "paused", index: 0, timeout: 5) != nil, "click did not pause")
            // Wait past the double-click time so the next click is a click of its own.
            usleep(600_000)
            try xdotool(["click", "1"])
            let resumed = try waitCount(s, "played", 2)
            #expect(resumed, "second click should resume: \(Events.names((try? Events.read(s.log)) ?? []))")
            try quit(s)
            #expect(s.run.finish(timeout: 3)?.status == 0)
        }
    }
}
