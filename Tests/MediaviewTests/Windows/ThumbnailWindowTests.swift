import Foundation
import Testing
import TestSupport

/// The thumbnail as a window a user arranges: Alt+drag moves it and it snaps to a resting
/// place, Ctrl+wheel resizes it within limits, the place is remembered for the next run
/// (and forgotten with --minimized-reset), and the window manager is told what it is.
@Suite(.serialized)
struct ThumbnailWindowTests {
    struct Running {
        let process: Process
        let probe: ScreenProbe
        let window: UInt

        func geometry() -> (x: Int, y: Int, width: Int, height: Int)? { probe.geometry(of: window) }

        /// Waits until the window's geometry satisfies `condition`.
        func waitForGeometry(_ timeout: Double = 5,
                             _ condition: ((x: Int, y: Int, width: Int, height: Int)) -> Bool) -> (x: Int, y: Int, width: Int, height: Int)? {
            let end = Date().addingTimeInterval(timeout)
            repeat {
                if let g = geometry(), condition(g) { return g }
                usleep(20_000)
            } while Date() < end
            return geometry()
        }

        /// Waits until the window stops moving (two reads 150 ms apart agree) and `condition`
        /// holds.
        func settled(_ timeout: Double = 5,
                     _ condition: ((x: Int, y: Int, width: Int, height: Int)) -> Bool = { _ in true }) -> (x: Int, y: Int, width: Int, height: Int)? {
            let end = Date().addingTimeInterval(timeout)
            var last = geometry()
            repeat {
                usleep(150_000)
                let now = geometry()
                if let a = last, let b = now, a == b, condition(b) { return b }
                last = now
            } while Date() < end
            return last
        }

        func stop() {
            kill(process.processIdentifier, SIGTERM)
            Run.wait(process, timeout: 5)
        }
    }

    /// A state directory of the test's own: what one test teaches the program about the
    /// thumbnail's place must not move another test's thumbnail.
    let state = Fixtures.directory + "/thumbnail-state-\(UInt32.random(in: 0...UInt32.max))"

    func start(_ args: [String] = []) throws -> Running {
        let clip = try Fixtures.solidVideo("green", width: 320, height: 180, seconds: 20)
        let p = try Run.start(Run.mediaview, ["--no-audio", "--swipe-mode", "minimize"] + args + [clip],
                              environment: Run.environment(["XDG_STATE_HOME": state]))
        let probe = try ScreenProbe()
        var window: UInt?
        let end = Date().addingTimeInterval(10)
        while window == nil && Date() < end {
            usleep(50_000)
            window = probe.windows(className: "mediaview", pid: p.processIdentifier).first { probe.geometry(of: $0)?.width ?? 0 > 1000 }
        }
        return Running(process: p, probe: probe, window: try #require(window, "no mediaview window"))
    }

    func xdo(_ args: [String]) throws {
        let r = try Run.process("xdotool", args, timeout: 10)
        #expect(r.status == 0, "xdotool \(args): \(r.stderr)")
    }

    /// Minimizes with the key and waits for the default corner: 427 x 240 on 1280 x 720.
    func minimize(_ s: Running) throws -> (x: Int, y: Int, width: Int, height: Int) {
        try xdo(["key", "--window", "\(s.window)", "ctrl+Down"])
        return try #require(s.settled { $0.width < 1000 }, "did not minimize")
    }

    @Test("Alt+drag moves the thumbnail, it snaps to the top-left resting place, and the next run minimizes there")
    func moveSnapRemember() throws {
        let s = try start(["--minimized-reset"])
        let corner = try minimize(s)
        #expect(corner.x == 1280 - 12 - 427 && corner.y == 720 - 12 - 240, "default corner: \(corner)")
        // Grab it in the middle and drop it 15 px from the top-left resting place (12, 12).
        let from = (corner.x + 200, corner.y + 100)
        let to = (12 + 15 + 200, 12 + 10 + 100)
        try xdo(["mousemove", "\(from.0)", "\(from.1)", "keydown", "alt", "mousedown", "1"])
        for i in 1...8 {
            try xdo(["mousemove", "\(from.0 + (to.0 - from.0) * i / 8)", "\(from.1 + (to.1 - from.1) * i / 8)"])
        }
        try xdo(["mouseup", "1", "keyup", "alt"])
        let snapped = s.settled()
        #expect(snapped?.x == 12 && snapped?.y == 12 && snapped?.width == 427, "snapped: \(String(describing: snapped))")
        // Still the view's thumbnail: a plain click restores it.
        try xdo(["mousemove", "200", "100", "click", "1"])
        #expect(s.waitForGeometry { $0.width == 1280 } != nil, "a click restores")
        s.stop()

        let again = try start()
        let remembered = try minimize(again)
        #expect(remembered.x == 12 && remembered.y == 12, "the next run minimizes where it was left: \(remembered)")
        again.stop()

        let reset = try start(["--minimized-reset"])
        let fresh = try minimize(reset)
        #expect(fresh.x == 1280 - 12 - 427 && fresh.y == 720 - 12 - 240, "forgotten: \(fresh)")
        reset.stop()
    }

    @Test("Ctrl+wheel over the thumbnail resizes it with its aspect, between 160 px and half the monitor")
    func wheelResize() throws {
        let s = try start(["--minimized-reset"])
        defer { s.stop() }
        let first = try minimize(s)
        // Near the bottom-right corner, which stays put, so the pointer stays over it.
        let mid = ["mousemove", "\(first.x + first.width - 20)", "\(first.y + first.height - 20)"]
        try xdo(mid + ["keydown", "ctrl", "click", "--repeat", "25", "--delay", "30", "5", "keyup", "ctrl"])
        let small = s.settled()
        #expect(small?.width == 160 && small?.height == 90, "smallest: \(String(describing: small))")
        // The bottom-right corner stays where it was.
        #expect(small.map { $0.x + $0.width == first.x + first.width && $0.y + $0.height == first.y + first.height } == true)
        let now = try #require(s.geometry())
        try xdo(["mousemove", "\(now.x + now.width - 20)", "\(now.y + now.height - 20)", "keydown", "ctrl", "click", "--repeat", "25",
                 "--delay", "30", "4", "keyup", "ctrl"])
        let large = s.settled()
        #expect(large?.width == 640 && large?.height == 360, "largest is half the monitor: \(String(describing: large))")
    }

    @Test("Under openbox the thumbnail is a utility window on every workspace with an aspect hint; restored, it is not")
    func windowManagerHints() throws {
        let wm = try WindowManagers.openbox()
        defer { WindowManagers.stop(wm) }
        func props(_ s: Running) throws -> String {
            try Run.process("xprop", ["-id", "\(s.window)", "_NET_WM_WINDOW_TYPE", "_NET_WM_STATE", "_NET_WM_DESKTOP",
                                      "WM_NORMAL_HINTS"], timeout: 5).stdout
        }
        func waitForProps(_ s: Running, _ condition: (String) -> Bool) throws -> String {
            let end = Date().addingTimeInterval(5)
            var text = try props(s)
            while !condition(text) && Date() < end {
                usleep(50_000)
                text = try props(s)
            }
            return text
        }
        let s = try start(["--minimized-reset"])
        let g = try minimize(s)
        #expect(g.x == 1280 - 12 - 427 && g.y == 720 - 12 - 240 && g.width == 427, "openbox keeps the corner: \(g)")
        // Every workspace: openbox shows it as the desktop 0xFFFFFFFF ("all"), where other
        // managers add _NET_WM_STATE_STICKY too.
        let everywhere = "_NET_WM_DESKTOP(CARDINAL) = 4294967295"
        let small = try waitForProps(s) { $0.contains(everywhere) && $0.contains("UTILITY") }
        #expect(small.contains("_NET_WM_WINDOW_TYPE_UTILITY"), "\(small)")
        #expect(small.contains(everywhere) && small.contains("_NET_WM_STATE_ABOVE"), "\(small)")
        #expect(small.contains("minimum aspect ratio: 427/240") && small.contains("maximum aspect ratio: 427/240")
                && small.contains("minimum size: 160 by 90"), "\(small)")
        try xdo(["key", "--window", "\(s.window)", "ctrl+Up"])
        let big = try waitForProps(s) { !$0.contains(everywhere) && $0.contains("NORMAL") }
        #expect(big.contains("_NET_WM_WINDOW_TYPE_NORMAL") && !big.contains(everywhere) && !big.contains("aspect"), "\(big)")
        s.stop()

        let own = try start(["--no-minimized-sticky"])
        defer { own.stop() }
        _ = try minimize(own)
        let text = try waitForProps(own) { $0.contains("UTILITY") }
        #expect(text.contains("UTILITY") && !text.contains("4294967295"), "\(text)")
    }

    @Test("Hovering the thumbnail shows its controls: the bottom-centre button pauses, the close button throws it away")
    func hoverControls() throws {
        let s = try start(["--minimized-reset"])
        try xdo(["mousemove", "100", "100"])
        let c = try minimize(s)
        // The play/pause button: bottom centre above the progress band, 48 px across.
        let (cx, cy) = (c.x + c.width / 2, c.y + c.height - 18 - 24)
        let probe = s.probe
        #expect(probe.waitFor(timeout: 5) { $0.matches(cx, cy, 0x008000) } != nil, "the video's green, no controls yet")
        try xdo(["mousemove", "\(cx)", "\(cy)"])
        #expect(probe.waitFor(timeout: 5) { !$0.matches(cx, cy, 0x008000) && !$0.matches(cx, cy, 0x3D8BFD) } != nil,
                "the pause button shows")
        try xdo(["click", "1"])
        #expect(probe.waitFor(timeout: 5) { $0.matches(cx - 2, cy, 0x3D8BFD, tolerance: 40) } != nil,
                "paused: the play button in the theme colour")
        #expect(s.geometry()?.width == c.width, "a click on the controls does not restore")
        // The close button: top right, 6 px in, 36 px across on a 240 px high thumbnail.
        try xdo(["mousemove", "\(c.x + c.width - 6 - 18)", "\(c.y + 6 + 18)", "click", "1"])
        #expect(Run.wait(s.process, timeout: 5), "closing the only item ends the program")
        #expect(s.process.terminationStatus == 0)
    }

    @Test("Under i3, a tiling window manager, the thumbnail floats at its corner and size, and restores to fullscreen")
    func underI3() throws {
        let wm = try WindowManagers.i3()
        defer { WindowManagers.stop(wm) }
        /// i3's own view of our window: floating state, rectangle, fullscreen.
        func node(_ window: UInt) throws -> [String: Any]? {
            let tree = try Run.process("i3-msg", ["-t", "get_tree"], timeout: 5).stdout
            let root = try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any]
            func find(_ n: [String: Any]) -> [String: Any]? {
                if (n["window"] as? Int).map({ UInt($0) }) == window { return n }
                let children = (n["nodes"] as? [[String: Any]] ?? []) + (n["floating_nodes"] as? [[String: Any]] ?? [])
                for c in children { if let f = find(c) { return f } }
                return nil
            }
            return root.flatMap(find)
        }
        let s = try start(["--minimized-reset"])
        defer { s.stop() }
        // i3 takes the fullscreen request a moment after the window maps: wait for its tree to say so.
        var mode: Int?
        let until = Date().addingTimeInterval(10)
        repeat {
            mode = try node(s.window)?["fullscreen_mode"] as? Int
            if mode != 1 { usleep(50_000) }
        } while mode != 1 && Date() < until
        #expect(mode == 1, "starts fullscreen")
        let g = try minimize(s)
        #expect(g.width == 427 && g.height == 240 && g.x == 1280 - 12 - 427, "the corner, at its size: \(g)")
        let floating = try node(s.window)?["floating"] as? String
        #expect(floating == "auto_on" || floating == "user_on", "i3 floats it: \(String(describing: floating))")
        try xdo(["key", "--window", "\(s.window)", "ctrl+Up"])
        let back = s.settled { $0.width == 1280 }
        #expect(back?.width == 1280 && back?.height == 720, "restored: \(String(describing: back))")
        #expect(try node(s.window)?["fullscreen_mode"] as? Int == 1, "fullscreen again")
    }

    @Test("Dragging the thumbnail's top-left corner makes it larger; its bottom-right corner stays; remembered")
    func cornerResize() throws {
        let s = try start(["--minimized-reset"])
        try xdo(["mousemove", "100", "100"])
        let c = try minimize(s)
        let from = (c.x + 3, c.y + 3)
        try xdo(["mousemove", "\(from.0)", "\(from.1)", "mousedown", "1"])
        for i in 1...6 { try xdo(["mousemove", "\(from.0 - 20 * i)", "\(from.1 - 5 * i)"]) }
        try xdo(["mouseup", "1"])
        let g = try #require(s.settled())
        #expect(g.width == 547 && g.height == 308, "120 px wider, 16:9: \(g)")
        #expect(g.x + g.width == c.x + c.width && g.y + g.height == c.y + c.height, "bottom-right kept: \(g)")
        s.stop()
        let again = try start()
        defer { again.stop() }
        let next = try minimize(again)
        #expect(next.width == 547 && next.x == g.x && next.y == g.y, "the next run keeps the size: \(next)")
    }

    @Test("A window manager that will not let the thumbnail be small leaves a usable window and one warning")
    func refusedSize() throws {
        let dir = Fixtures.directory + "/openbox-max-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // A user's rule that keeps mediaview maximized: openbox then sizes it as it likes.
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <openbox_config xmlns="http://openbox.org/3.4/rc"><applications>
            <application class="mediaview"><maximized>yes</maximized></application>
            </applications></openbox_config>
            """.write(toFile: dir + "/rc.xml", atomically: true, encoding: .utf8)
        let wm = try WindowManagers.openbox(configFile: dir + "/rc.xml")
        defer { WindowManagers.stop(wm) }
        let errPath = dir + "/stderr"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let clip = try Fixtures.solidVideo("green", width: 320, height: 180, seconds: 20)
        let p = try Run.start(Run.mediaview, ["--no-audio", "--swipe-mode", "minimize", "--minimized-reset", "--windowed", clip],
                              environment: Run.environment(["XDG_STATE_HOME": state]),
                              stderr: FileHandle(forWritingAtPath: errPath))
        defer { kill(p.processIdentifier, SIGTERM); Run.wait(p, timeout: 5) }
        let probe = try ScreenProbe()
        var window: UInt?
        let until = Date().addingTimeInterval(10)
        while window == nil && Date() < until {
            usleep(50_000)
            window = probe.windows(className: "mediaview", pid: p.processIdentifier).first { probe.geometry(of: $0)?.width ?? 0 > 1000 }
        }
        let w = try #require(window)
        try xdo(["key", "--window", "\(w)", "ctrl+Down"])
        let warned = Date().addingTimeInterval(5)
        var text = ""
        while !text.contains("floating rule") && Date() < warned {
            usleep(50_000)
            text = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        }
        #expect(text.split(separator: "\n").filter { $0.contains("floating rule") }.count == 1, "one warning: \(text)")
        let g = try #require(probe.geometry(of: w))
        #expect(probe.waitFor(timeout: 5) { $0.matches(g.x + g.width / 2, g.y + g.height / 2, 0x008000) } != nil,
                "still showing the video: \(g)")
        #expect(p.isRunning, "still running")
    }

    @Test("Under openbox its own Alt+drag moves the thumbnail, and that place is the one remembered")
    func windowManagerMoveCounts() throws {
        let wm = try WindowManagers.openbox()
        defer { WindowManagers.stop(wm) }
        let s = try start(["--minimized-reset"])
        let c = try minimize(s)
        try xdo(["mousemove", "\(c.x + 200)", "\(c.y + 100)", "keydown", "alt", "mousedown", "1"])
        for i in 1...6 { try xdo(["mousemove", "\(c.x + 200 - 80 * i)", "\(c.y + 100 - 60 * i)"]) }
        try xdo(["mouseup", "1", "keyup", "alt"])
        let moved = try #require(s.settled())
        #expect(moved.x < c.x - 300 && moved.y < c.y - 200 && moved.width == c.width, "openbox moved it: \(moved)")
        s.stop()
        let again = try start()
        defer { again.stop() }
        let next = try minimize(again)
        #expect(abs(next.x - moved.x) <= 2 && abs(next.y - moved.y) <= 2, "remembered: \(next) after \(moved)")
    }
}
