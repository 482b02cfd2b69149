import Foundation
import Testing
import TestSupport

/// The signature gesture with real pointer events (xdotool drives XTest): drag down to the
/// bottom-right thumbnail, snap back, throw it away to the right, click to restore.
@Suite(.serialized)
struct GestureTests {
    /// One running mediaview with its event log.
    struct Session {
        let process: Process
        let events: String
        let probe: ScreenProbe
        let window: UInt

        func log() -> [[String: Any]] {
            let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        /// The view's events in order, without the steps of a motion and the input lines.
        func names() -> [String] {
            log().compactMap { $0["event"] as? String }.filter { !["offset", "key", "button"].contains($0) }
        }

        func geometry() -> (x: Int, y: Int, width: Int, height: Int)? { probe.geometry(of: window) }

        /// Waits until the window's geometry satisfies `condition` (an animation or a window
        /// manager settles in its own time, slower on a busy machine); returns the last seen.
        func geometry(until condition: (Geometry) -> Bool) -> Geometry? {
            GestureTests.geometry(of: window, probe, until: condition)
        }

        /// Waits until the log satisfies `condition`.
        func waitLog(timeout: Double = 10, _ condition: ([[String: Any]]) -> Bool) -> Bool {
            let end = Date().addingTimeInterval(timeout)
            while !condition(log()) && Date() < end { usleep(20_000) }
            return condition(log())
        }

        /// The gestures that have settled (minimized, restored, snapped back, thrown away).
        func settled() -> Int {
            log().filter { ["did_end_minimizing", "did_end_dismissing"].contains($0["event"] as? String ?? "") }.count
        }

        func stop() {
            kill(process.processIdentifier, SIGTERM)
            Run.wait(process, timeout: 5)
        }
    }

    typealias Geometry = (x: Int, y: Int, width: Int, height: Int)

    /// Waits until `window`'s geometry satisfies `condition`; returns the last one seen.
    static func geometry(of window: UInt, _ probe: ScreenProbe, until condition: (Geometry) -> Bool) -> Geometry? {
        let end = Date().addingTimeInterval(10)
        var g = probe.geometry(of: window)
        while !(g.map(condition) ?? false) && Date() < end {
            usleep(20_000)
            g = probe.geometry(of: window)
        }
        return g
    }

    func start(_ args: [String], files: [String]) throws -> Session {
        let events = Fixtures.directory + "/gesture-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let p = try Run.start(Run.mediaview, ["--events", events] + args + files, environment: Run.environment())
        let probe = try ScreenProbe()
        var window: UInt?
        let end = Date().addingTimeInterval(10)
        while window == nil && Date() < end {
            usleep(50_000)
            window = probe.windows(className: "mediaview", pid: p.processIdentifier).first { probe.geometry(of: $0)?.width ?? 0 > 1000 }
        }
        let w = try #require(window, "the mediaview window never appeared")
        // Gestures act on what is on screen: the first picture first.
        try #require(Events.waitFor(events, "first_frame", index: 0) != nil, "no first picture")
        return Session(process: p, events: events, probe: probe, window: w)
    }

    func xdo(_ args: [String]) throws {
        let r = try Run.process("xdotool", args, timeout: 10)
        #expect(r.status == 0, "xdotool \(args): \(r.stderr)")
    }

    /// A press at (x, y0), motion in steps to y1 (or x1), release; then waits until the
    /// gesture settled (its end is in `session`'s log).
    func drag(_ session: Session, from: (Int, Int), to: (Int, Int), steps: Int = 8) throws {
        let before = session.settled()
        try drag(from: from, to: to, steps: steps)
        #expect(session.waitLog { _ in session.settled() > before }, "the drag did not settle")
    }

    /// A press at (x, y0), motion in steps to y1 (or x1), release.
    func drag(from: (Int, Int), to: (Int, Int), steps: Int = 8) throws {
        try xdo(["mousemove", "\(from.0)", "\(from.1)", "mousedown", "1"])
        for i in 1...steps {
            let x = from.0 + (to.0 - from.0) * i / steps, y = from.1 + (to.1 - from.1) * i / steps
            try xdo(["mousemove", "\(x)", "\(y)"])
            usleep(30_000)
        }
        try xdo(["mouseup", "1"])
    }

    func video() throws -> String {
        try Fixtures.solidVideo("green", width: 320, height: 180, seconds: 8, tone: 660)
    }

    @Test("Drag down past 40 %: the thumbnail settles bottom right with the SPEC's geometry",
          arguments: [(1.0 / 3.0, "landscape", 0), (0.25, "square", 40), (0.2, "portrait", 0)])
    func minimize(ratio: Double, aspect: String, buffer: Int) throws {
        let s = try start(["--no-audio", "--minimized-width-ratio", "\(ratio)", "--minimized-aspect", aspect,
                           "--bottom-buffer", "\(buffer)"], files: [try video()])
        defer { s.stop() }
        try drag(s, from: (640, 100), to: (640, 500))
        let w = Int((1280 * ratio).rounded())
        let a = aspect == "landscape" ? 9.0 / 16.0 : aspect == "square" ? 1.0 : 16.0 / 9.0
        let h = Int((Double(w) * a).rounded())
        let g = try #require(s.geometry { $0.width == w && $0.height == h && $0.x == 1280 - 12 - w })
        #expect(g.width == w && g.height == h, "size \(g)")
        #expect(g.x == 1280 - 12 - w && g.y == 720 - 12 - buffer - h, "origin \(g)")
        // It keeps playing: the picture is green at the thumbnail's centre.
        #expect(s.probe.waitFor { _ in
            s.probe.grab(x: g.x, y: g.y, width: g.width, height: g.height).matches(g.width / 2, g.height / 2, 0x008000, tolerance: 40)
        } != nil, "no green picture in the thumbnail")
        // The minimization's own calls, in order (a hover over the track may come between).
        let names = s.names().filter { $0.contains("minimiz") }
        let start = try #require(names.firstIndex(of: "will_change_minimization"))
        #expect(Array(names[start...].prefix(4)) == ["will_change_minimization", "did_change_minimization",
                                                     "will_end_minimizing", "did_end_minimizing"])
        let ends = s.log().filter { $0["event"] as? String == "did_end_minimizing" }
        #expect(ends.last?["minimized"] as? Bool == true)
        let offsets = s.log().filter { $0["event"] as? String == "offset" }.compactMap { $0["progress"] as? Double }
        #expect(offsets.count >= 4, "didChangeOffset on every step")
        #expect(offsets == offsets.sorted(), "progress grows as the drag goes down")
    }

    @Test("A short drag snaps back to fullscreen")
    func snapBack() throws {
        let s = try start(["--no-audio"], files: [try video()])
        defer { s.stop() }
        try drag(s, from: (640, 100), to: (640, 250))
        let g = try #require(s.geometry { $0.width == 1280 })
        #expect(g.x == 0 && g.y == 0 && g.width == 1280 && g.height == 720, "\(g)")
        let ends = s.log().filter { $0["event"] as? String == "did_end_minimizing" }
        #expect(ends.last?["minimized"] as? Bool == false)
    }

    @Test("Click on the thumbnail restores; a click beside it reaches the window underneath")
    func clickRestoresAndPassesThrough() throws {
        let under = try ProbeWindow(x: 0, y: 0, width: 400, height: 300)
        let s = try start(["--no-audio"], files: [try video()])
        defer { s.stop() }
        try drag(s, from: (640, 100), to: (640, 500))
        let g = try #require(s.geometry { $0.width < 1280 })
        #expect(g.width < 1280)
        _ = under.presses()
        try xdo(["mousemove", "100", "100", "click", "1"])
        var presses = 0
        let end = Date().addingTimeInterval(5)
        while presses == 0 && Date() < end {
            presses += under.presses().count
            usleep(20_000)
        }
        #expect(presses == 1, "the desktop under the thumbnail takes the click")
        try xdo(["mousemove", "\(g.x + g.width / 2)", "\(g.y + g.height / 2)", "click", "1"])
        let r = try #require(s.geometry { $0.width == 1280 })
        #expect(r.width == 1280 && r.height == 720, "restored: \(r)")
    }

    @Test("Dragging the thumbnail right past 40 % throws it away; the last item ends the program with 0")
    func throwAway() throws {
        let s = try start(["--no-audio"], files: [try video()])
        try drag(s, from: (640, 100), to: (640, 500))
        let g = try #require(s.geometry { $0.width < 1280 })
        let y = g.y + g.height / 2
        // 30 % first: it comes back.
        try drag(s, from: (g.x + 20, y), to: (g.x + 20 + g.width * 3 / 10, y))
        let back = try #require(s.geometry { $0.x == g.x })
        #expect(back.x == g.x, "snapped back: \(back)")
        try drag(from: (g.x + 20, y), to: (g.x + 20 + g.width / 2, y))
        let ended = Run.wait(s.process, timeout: 5)
        #expect(ended, "dismissing the last item ends the program")
        #expect(s.process.terminationStatus == 0)
        let names = s.names()
        #expect(names.contains("will_end_dismissing") && names.contains("did_end_dismissing"))
        let ends = s.log().filter { $0["event"] as? String == "did_end_dismissing" }.compactMap { $0["dismissed"] as? Bool }
        #expect(ends == [false, true])
        #expect(names.suffix(3).contains("dismissed"))
    }

    @Test("Under a real EWMH window manager (openbox): fullscreen, thumbnail above and out of the task bar, restore")
    func underOpenbox() throws {
        let wm = try WindowManagers.openbox()
        defer { WindowManagers.stop(wm) }
        let s = try start(["--no-audio"], files: [try video()])
        defer { s.stop() }
        func state() throws -> String {
            try Run.process("xprop", ["-id", "\(s.window)", "_NET_WM_STATE"], timeout: 5).stdout
        }
        #expect(try state().contains("_NET_WM_STATE_FULLSCREEN"))
        try drag(s, from: (640, 100), to: (640, 500))
        let g = try #require(s.geometry { $0.width == 427 && $0.y == 720 - 12 - 240 })
        #expect(g.width == 427 && g.height == 240 && g.x == 1280 - 12 - 427 && g.y == 720 - 12 - 240, "\(g)")
        let st = try state()
        #expect(st.contains("_NET_WM_STATE_ABOVE") && st.contains("_NET_WM_STATE_SKIP_TASKBAR"), "\(st)")
        #expect(!st.contains("FULLSCREEN"), "\(st)")
        try xdo(["key", "ctrl+Up"])
        let r = try #require(s.geometry { $0.width == 1280 && $0.height == 720 })
        #expect(r.width == 1280 && r.height == 720, "restored: \(r)")
        let end = Date().addingTimeInterval(5)
        while try !state().contains("_NET_WM_STATE_FULLSCREEN") && Date() < end { usleep(50_000) }
        #expect(try state().contains("_NET_WM_STATE_FULLSCREEN"))
    }

    @Test("Two monitors side by side: fullscreen and the thumbnail use the monitor that holds the window")
    func twoMonitors() throws {
        for (name, geometry) in [("mvleft", "640/169x720/191+0+0"), ("mvright", "640/169x720/191+640+0")] {
            _ = try Run.process("xrandr", ["--setmonitor", name, geometry, "none"], timeout: 10)
        }
        defer {
            for name in ["mvleft", "mvright"] { _ = try? Run.process("xrandr", ["--delmonitor", name], timeout: 10) }
        }
        try xdo(["mousemove", "900", "300"])
        let probe = try ScreenProbe()
        let events = Fixtures.directory + "/monitors-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let p = try Run.start(Run.mediaview, ["--no-audio", "--events", events, try video()], environment: Run.environment())
        defer { kill(p.processIdentifier, SIGTERM); Run.wait(p, timeout: 5) }
        // The drag acts on what is on screen: the first picture first.
        try #require(Events.waitFor(events, "first_frame", index: 0) != nil, "no first picture")
        var window: UInt?
        let end = Date().addingTimeInterval(10)
        while window == nil && Date() < end {
            usleep(50_000)
            window = probe.windows(className: "mediaview", pid: p.processIdentifier).first
        }
        let w = try #require(window)
        let full = try #require(Self.geometry(of: w, probe) { $0.x == 640 && $0.width == 640 })
        #expect(full.x == 640 && full.y == 0 && full.width == 640 && full.height == 720, "the right monitor: \(full)")
        try xdo(["mousemove", "960", "360", "mousedown", "1"])
        for y in stride(from: 400, through: 700, by: 50) { try xdo(["mousemove", "960", "\(y)"]); usleep(30_000) }
        try xdo(["mouseup", "1"])
        let tw = Int((640.0 / 3).rounded()), th = Int((Double(tw) * 9 / 16).rounded())
        let thumb = try #require(Self.geometry(of: w, probe) { $0.width == tw && $0.y == 720 - 12 - th })
        #expect(thumb.width == tw && thumb.height == th, "a third of the monitor's width: \(thumb)")
        #expect(thumb.x == 1280 - 12 - tw && thumb.y == 720 - 12 - th, "its bottom-right corner: \(thumb)")
    }

    @Test("The screen turns to portrait: the view relayouts, will/did rotate fire; keys rotate the media")
    func rotation() throws {
        let s = try start(["--no-audio"], files: [try video()])
        defer { s.stop() }
        s.probe.announceScreenSize(width: 720, height: 1280)
        let g = try #require(s.geometry { $0.width == 720 && $0.height == 1280 })
        #expect(g.width == 720 && g.height == 1280, "relaid out for portrait: \(g)")
        s.probe.announceScreenSize(width: 1280, height: 720)
        _ = s.geometry { $0.width == 1280 && $0.height == 720 }
        try xdo(["key", "r"])
        _ = s.waitLog { $0.filter { $0["event"] as? String == "did_rotate" }.count >= 3 }
        let rotations = s.log().filter { ($0["event"] as? String)?.hasSuffix("_rotate") == true }
        #expect(rotations.map { $0["event"] as? String } == ["will_rotate", "did_rotate", "will_rotate", "did_rotate",
                                                            "will_rotate", "did_rotate"])
        #expect(rotations.last?["rotation"] as? Int == 90)
        let back = try #require(s.geometry())
        #expect(back.width == 1280 && back.height == 720)
    }

    @Test("Dismiss mode: a long drag down dismisses; the sound keeps playing while minimized")
    func dismissModeAndSound() throws {
        // Minimized playback keeps its sound.
        let s = try start([], files: [try video()])
        try drag(s, from: (640, 100), to: (640, 500))
        let rec = try AudioProbe.startRecording()
        usleep(1_000_000)
        let samples = AudioProbe.finish(rec)
        s.stop()
        let f = AudioProbe.dominantFrequency(samples)
        #expect(f.map { abs($0 - 660) <= 10 } == true, "heard \(String(describing: f)) Hz while minimized")

        let d = try start(["--no-audio", "--swipe-mode", "dismiss"], files: [try video()])
        try drag(d, from: (640, 50), to: (640, 400))
        #expect(Run.wait(d.process, timeout: 5), "dismissed, and it was the last item")
        let ends = d.log().filter { $0["event"] as? String == "did_end_dismissing" }.compactMap { $0["dismissed"] as? Bool }
        #expect(ends == [true])
    }
}
