import Foundation
import Testing
import TestSupport
@testable import Windowing

/// A window manager that starts after the window is up (a session script that starts the
/// viewer first) is noticed, and a fullscreen window is fullscreen under it too; one that
/// quits is noticed as well, so the window goes back to placing itself.
@Suite(.serialized)
@MainActor
struct WindowManagerArrivalTests {
    /// The window's `_NET_WM_STATE` and desktop as the server has them, seen from outside.
    func state(_ w: XWindow) throws -> String {
        try Run.process("xprop", ["-id", "\(w.id)", "_NET_WM_STATE", "_NET_WM_DESKTOP"], timeout: 5).stdout
    }

    /// A window of a new connection, prepared by `prepare` and then mapped.
    func shown(x: Int, y: Int, width: Int, height: Int,
               prepare: (XWindow) -> Void = { _ in }) throws -> (XDisplay, EventLoop, XWindow) {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        let w = try XWindow(display: d, x: x, y: y, width: width, height: height)
        loop.attach(w, surface: nil)
        prepare(w)
        w.map()
        #expect(pump(loop) { w.isMapped }, "the window was not mapped")
        return (d, loop, w)
    }

    /// Runs the loop until `condition` holds or `timeout` passes.
    func pump(_ loop: EventLoop, timeout: Double = 5, until condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if try condition() { return true }
            loop.wait(timeout: 0.05)
            _ = loop.pendingEvents()
        }
        return try condition()
    }

    @Test("openbox started after a fullscreen window: the window sees it come and go, and stays fullscreen under it")
    func managerArrivesLater() throws {
        let (d, loop, w) = try shown(x: 40, y: 30, width: 200, height: 150)
        w.setFullscreen(true)
        d.sync()
        #expect(!d.hasWindowManager, "no window manager yet")
        let probe = try ScreenProbe()
        let screen = probe.screenSize
        #expect(pump(loop) { probe.geometry(of: w.id).map { $0.width == screen.width && $0.height == screen.height } == true },
                "covers the screen itself: \(String(describing: probe.geometry(of: w.id)))")

        let wm = try WindowManagers.openbox()
        #expect(pump(loop) { d.hasWindowManager }, "the window manager's arrival was not seen")
        // The manager holds the window fullscreen: its state says so and no frame shows.
        let managed = try pump(loop) {
            try state(w).contains("_NET_WM_STATE_FULLSCREEN")
                && probe.geometry(of: w.id).map { $0 == (0, 0, screen.width, screen.height) } == true
        }
        let seen = try state(w)
        #expect(managed, "state: \(seen); geometry: \(String(describing: probe.geometry(of: w.id)))")

        // The loop keeps turning while openbox quits: its check window's end is an event.
        kill(wm.processIdentifier, SIGTERM)
        #expect(pump(loop) { !d.hasWindowManager }, "the window manager's leaving was not seen")
        WindowManagers.stop(wm)
    }

    @Test("A window made fullscreen under openbox covers the screen again after openbox quits")
    func managerQuitsUnderFullscreen() throws {
        let wm = try WindowManagers.openbox()
        defer { WindowManagers.stop(wm) }
        let (d, loop, w) = try shown(x: 40, y: 30, width: 640, height: 360)
        #expect(pump(loop) { d.hasWindowManager }, "openbox was not seen")
        w.setFullscreen(true)
        let probe = try ScreenProbe()
        let screen = probe.screenSize
        let full = { probe.geometry(of: w.id).map { $0 == (0, 0, screen.width, screen.height) } == true }
        #expect(try pump(loop) { try state(w).contains("_NET_WM_STATE_FULLSCREEN") && full() },
                "not fullscreen under openbox: \(String(describing: probe.geometry(of: w.id)))")
        kill(wm.processIdentifier, SIGTERM)
        #expect(pump(loop) { !d.hasWindowManager }, "the window manager's leaving was not seen")
        // openbox hands the window back with the size it had before fullscreen, framed
        // where its frame was: the window covers the screen again itself.
        #expect(pump(loop) { !d.hasWindowManager && full() },
                "after openbox quit: \(String(describing: probe.geometry(of: w.id)))")
    }

    @Test("A floating thumbnail shown before openbox started is above the others and on every workspace under it")
    func thumbnailBeforeTheManager() throws {
        let (d, loop, w) = try shown(x: 800, y: 460, width: 427, height: 240) { w in
            w.setUtilityType(true)
            w.setFloating(true)
            w.setOnAllWorkspaces(true)
        }
        let wm = try WindowManagers.openbox()
        defer { WindowManagers.stop(wm) }
        #expect(pump(loop) { d.hasWindowManager }, "the window manager's arrival was not seen")
        let told = try pump(loop) {
            let p = try state(w)
            return p.contains("_NET_WM_STATE_ABOVE") && p.contains("_NET_WM_STATE_SKIP_TASKBAR")
                && p.contains("_NET_WM_DESKTOP(CARDINAL) = 4294967295")
        }
        let seen = try state(w)
        #expect(told, "\(seen)")
    }
}
