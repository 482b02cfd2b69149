import Foundation
import Testing
import TestSupport
@testable import Windowing

/// A held key repeats; a key pressed again is a new press, however it comes: through the
/// keyboard, or sent by another program (all such events carry time 0).
@Suite(.serialized)
@MainActor
struct KeyRepeatTests {
    /// A window of its own, mapped, with the loop that reads its events.
    private func mappedWindow() throws -> (XWindow, EventLoop) {
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
        return (w, loop)
    }

    /// The key events of `name` that came within `seconds`, or until `enough` says so.
    private func keys(_ loop: EventLoop, seconds: Double = 5, until enough: ([KeyEvent]) -> Bool) -> [KeyEvent] {
        var got: [KeyEvent] = []
        let end = Date().addingTimeInterval(seconds)
        while !enough(got) && Date() < end {
            loop.wait(timeout: 0.05)
            for (_, e) in loop.pendingEvents() { if case .key(let k) = e { got.append(k) } }
        }
        return got
    }

    @Test("The same key sent three times by another program is three presses, none a repeat")
    func sentKeysAreNeverRepeats() throws {
        let (w, loop) = try mappedWindow()
        // Not focused: xdotool sends the events to the window (XSendEvent), each with time 0.
        let r = try Run.process("xdotool", ["key", "--window", String(w.id), "q", "q", "q"], timeout: 10)
        #expect(r.status == 0, "xdotool: \(r.stderr)")
        let presses = keys(loop) { $0.filter(\.isPress).count >= 3 }.filter(\.isPress)
        #expect(presses.count == 3)
        #expect(presses.allSatisfy { $0.isSynthetic && !$0.isAutoRepeat && $0.name == "q" }, "\(presses)")
    }

    @Test("A held key repeats; released and pressed again, it is a new press")
    func heldKeyRepeatsAndAPressAfterReleaseDoesNot() throws {
        let (w, loop) = try mappedWindow()
        w.focus()
        w.display.sync()
        // The key must not stay down for the tests after this one, whatever happens here.
        defer { _ = try? Run.process("xdotool", ["keyup", "a"], timeout: 10) }
        _ = try Run.process("xdotool", ["keydown", "a"], timeout: 10)
        // The server repeats after its delay (660 ms by default): wait for two repeats.
        let held = keys(loop) { $0.filter(\.isPress).count >= 3 }
        _ = try Run.process("xdotool", ["keyup", "a"], timeout: 10)
        _ = try Run.process("xdotool", ["key", "a"], timeout: 10)
        // Repeats queued before the release may still come first (a busy machine): the press
        // that counts is the first after the release.
        let after = keys(loop) { evs in evs.drop { $0.isPress }.contains { $0.isPress } }.drop { $0.isPress }
        let presses = held.filter(\.isPress)
        #expect(presses.count >= 3, "the held key did not repeat: \(held)")
        #expect(presses.first?.isAutoRepeat == false)
        let repeats = presses.dropFirst().map(\.isAutoRepeat)
        #expect(!repeats.contains(false), "\(presses.map(\.isAutoRepeat))")
        #expect(after.first { $0.isPress }?.isAutoRepeat == false, "a new press was taken for a repeat: \(after)")
    }

    @Test("Without detectable auto-repeat: only a real release and press in one window at one time repeat")
    func pairRule() {
        var f = KeyRepeatFilter(serverDetects: false)
        func step(press: Bool, code: UInt32, time: UInt, window: UInt, synthetic: Bool) -> Bool {
            f.isRepeat(press: press, code: code, time: time, window: window, synthetic: synthetic)
        }
        #expect(!step(press: false, code: 24, time: 100, window: 1, synthetic: false))
        #expect(step(press: true, code: 24, time: 100, window: 1, synthetic: false))
        // Sent by a program: both time 0, never a repeat.
        #expect(!step(press: false, code: 24, time: 0, window: 1, synthetic: true))
        #expect(!step(press: true, code: 24, time: 0, window: 1, synthetic: true))
        // Another window's release.
        #expect(!step(press: false, code: 24, time: 200, window: 2, synthetic: false))
        #expect(!step(press: true, code: 24, time: 200, window: 1, synthetic: false))
    }

    @Test("With detectable auto-repeat: a press of a held key repeats, a sent one never does")
    func heldRule() {
        var f = KeyRepeatFilter(serverDetects: true)
        func step(press: Bool, code: UInt32, time: UInt, window: UInt, synthetic: Bool) -> Bool {
            f.isRepeat(press: press, code: code, time: time, window: window, synthetic: synthetic)
        }
        #expect(!step(press: true, code: 24, time: 100, window: 1, synthetic: false))
        #expect(step(press: true, code: 24, time: 140, window: 1, synthetic: false))
        #expect(!step(press: true, code: 24, time: 0, window: 1, synthetic: true))
        #expect(!step(press: false, code: 24, time: 180, window: 1, synthetic: false))
        #expect(!step(press: true, code: 24, time: 300, window: 1, synthetic: false))
        // Focus moved away: the release will go elsewhere, so the key is no longer held.
        f.forgetHeldKeys()
        #expect(!step(press: true, code: 24, time: 400, window: 1, synthetic: false))
        // Held as the focus came (KeymapNotify, bit 24 of the vector): its next press repeats.
        var vector = [UInt8](repeating: 0, count: 32)
        vector[3] = 1
        f.keysDown(vector)
        #expect(step(press: true, code: 24, time: 500, window: 1, synthetic: false))
        #expect(!step(press: true, code: 25, time: 500, window: 1, synthetic: false))
    }
}
