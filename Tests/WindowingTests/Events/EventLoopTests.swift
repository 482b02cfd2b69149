import Foundation
import Testing
import TestSupport
@testable import Windowing

/// The main loop sleeps until something happens: a wake from another thread, an X event,
/// or its deadline — never longer, never busy.
@Suite(.serialized)
@MainActor
struct EventLoopTests {
    @Test("A wake from another thread ends the wait at once")
    func wakeFromThread() throws {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        let start = Date()
        Thread.detachNewThread {
            usleep(100_000)
            loop.wake()
        }
        loop.wait(timeout: 5)
        let took = Date().timeIntervalSince(start)
        #expect(took < 1.0, "woke after \(took) s")
        #expect(took >= 0.05, "returned before the wake (\(took) s)")
    }

    @Test("The timeout is honoured when nothing happens")
    func timeout() throws {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        _ = loop.pendingEvents()
        let start = Date()
        loop.wait(timeout: 0.2)
        let took = Date().timeIntervalSince(start)
        #expect(took >= 0.18 && took < 1.0, "took \(took) s")
    }

    @Test("Real key presses arrive as named keys with their text")
    func keys() throws {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        let w = try XWindow(display: d, x: 0, y: 0, width: 100, height: 100)
        loop.attach(w, surface: nil)
        w.map()
        var mapped = false
        let deadline = Date().addingTimeInterval(5)
        while !mapped && Date() < deadline {
            loop.wait(timeout: 0.1)
            for (_, e) in loop.pendingEvents() { if case .mapped(true) = e { mapped = true } }
        }
        w.focus()
        d.sync()
        let r = try Run.process("xdotool", ["key", "--delay", "20", "a", "shift+b", "space", "ctrl+Right", "Escape"], timeout: 10)
        #expect(r.status == 0, "xdotool: \(r.stderr)")
        var presses: [KeyEvent] = []
        let end = Date().addingTimeInterval(3)
        while presses.count < 5 && Date() < end {
            loop.wait(timeout: 0.1)
            // Shift and Ctrl arrive as presses of their own, with no name: leave them out.
            for (_, e) in loop.pendingEvents() { if case .key(let k) = e, k.isPress, k.name != nil { presses.append(k) } }
        }
        #expect(presses.map(\.name) == ["a", "B", "SPACE", "Ctrl+RIGHT", "ESC"])
        #expect(presses.map(\.text) == ["a", "B", " ", "", ""])
        #expect(presses.allSatisfy { $0.window == w.id })
    }
}
