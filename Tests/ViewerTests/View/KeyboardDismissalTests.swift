import Foundation
import Testing
import TestSupport
@testable import Viewer

/// `dismissKeyboard()`: the viewer's window hands the keyboard focus back to the window
/// that had it before, or to PointerRoot when that one has gone, and KeyboardSpy's agents
/// hear the keyboard hide. Real windows of a second X client on the test display.
@Suite(.serialized)
@MainActor
struct KeyboardDismissalTests {
    final class Agent: KeyboardSpyAgent {
        var keyboardEventsToSpyOn: [KeyboardSpyEvent] = [.willHide, .didHide]
        var heard: [KeyboardSpyEvent] = []
        func keyboardSpyEventProcessed(event: KeyboardSpyEvent, keyboardInfo: KeyboardSpyInfo) { heard.append(event) }
    }

    /// Shows a still in the harness's window and waits until that window has the focus;
    /// returns the window's id.
    ///
    /// Under a window manager, focus-stealing prevention may hold a new window back from the
    /// focus (openbox does when the window has no user time yet); the user's click then gives
    /// it, which `giveFocus` stands for. What is tested is where the focus goes afterwards.
    func presentFocused(_ h: QueueHarness, probe: ScreenProbe, giveFocus: Bool = false) throws -> UInt {
        let v = MediaView()
        v.setImage(url: try Fixtures.solidImage("red", width: 64, height: 48))
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { v.hasPicture }
        let ours = try #require(h.queue.screenOrNil()?.stage.window.id, "no window")
        h.pump(seconds: 5) { probe.focusedWindow == ours }
        if giveFocus && probe.focusedWindow != ours {
            // Until the window manager has mapped the window, a focus request on it fails
            // (the window is not viewable yet), so the click is given again until it holds.
            var lastAsked = Date.distantPast
            h.pump(seconds: 5) {
                if probe.focusedWindow == ours { return true }
                if Date().timeIntervalSince(lastAsked) > 0.25 {
                    probe.setFocus(ours)
                    lastAsked = Date()
                }
                return false
            }
        }
        #expect(probe.focusedWindow == ours, "the viewer did not take the focus")
        return ours
    }

    @Test("The focus goes back to the window that had it, and the spy hears willHide then didHide",
          arguments: [false, true])
    func backToThePreviousWindow(underOpenbox: Bool) throws {
        // A window manager gives the focus to windows it maps; it must not take it back.
        let wm = underOpenbox ? try WindowManagers.openbox() : nil
        defer { wm.map(WindowManagers.stop) }
        let probe = try ScreenProbe()
        let other = try ProbeWindow(x: 400, y: 300, width: 120, height: 90)
        probe.setFocus(other.id)
        let h = QueueHarness()
        defer { h.queue.shutdown(); probe.setFocus(nil) }
        _ = try presentFocused(h, probe: probe, giveFocus: underOpenbox)
        let agent = Agent()
        KeyboardSpy.spy(on: agent)
        defer { KeyboardSpy.unspy(on: agent) }
        dismissKeyboard()
        h.pump(seconds: 5) { probe.focusedWindow == other.id && agent.heard.contains(.didHide) }
        #expect(probe.focusedWindow == other.id, "the focus is on \(probe.focusedWindow), not \(other.id)")
        #expect(agent.heard == [.willHide, .didHide])
    }

    @Test("With the previous window gone, the focus goes to PointerRoot; a second call changes nothing")
    func pointerRootWhenGone() throws {
        let probe = try ScreenProbe()
        var other: ProbeWindow? = try ProbeWindow(x: 400, y: 300, width: 120, height: 90)
        probe.setFocus(other?.id)
        let h = QueueHarness()
        defer { h.queue.shutdown(); probe.setFocus(nil) }
        _ = try presentFocused(h, probe: probe)
        other = nil
        let agent = Agent()
        KeyboardSpy.spy(on: agent)
        defer { KeyboardSpy.unspy(on: agent) }
        dismissKeyboard()
        // PointerRoot is window 1 in the protocol.
        h.pump(seconds: 5) { probe.focusedWindow == 1 && agent.heard.contains(.didHide) }
        #expect(probe.focusedWindow == 1, "the focus is on \(probe.focusedWindow), not PointerRoot")
        // (With PointerRoot, a pointer resting on the window would bring the focus back to
        // it for a moment; what counts is that it left first.)
        #expect(agent.heard.prefix(2) == [.willHide, .didHide])
        // The window no longer has the focus, so it has nothing to give.
        #expect(!KeyboardDismissal.dismiss())
        #expect(probe.focusedWindow == 1)
    }
}
