import Testing
@testable import Viewer
@testable import Windowing

/// KeyboardSpy: agents hear only the events they chose, and an agent that is gone is never
/// called again (the MetovaBase rule).
@Suite(.serialized)
@MainActor
struct KeyboardSpyTests {
    final class Agent: KeyboardSpyAgent {
        var keyboardEventsToSpyOn: [KeyboardSpyEvent]
        var heard: [(KeyboardSpyEvent, String?)] = []
        let onCall: () -> Void
        init(_ events: [KeyboardSpyEvent], onCall: @escaping () -> Void = {}) {
            keyboardEventsToSpyOn = events
            self.onCall = onCall
        }
        func keyboardSpyEventProcessed(event: KeyboardSpyEvent, keyboardInfo: KeyboardSpyInfo) {
            heard.append((event, keyboardInfo.keyName))
            onCall()
        }
    }

    /// An agent that declares its events as KeyboardSpy's README does and uses the default
    /// handler.
    final class Quiet: KeyboardSpyAgent {
        internal var keyboardEventsToSpyOn: [KeyboardSpyEvent] = [.keyPress]
    }

    func key(_ name: String, press: Bool = true) -> KeyEvent {
        KeyEvent(isPress: press, keysym: 0x61, name: name, text: name, modifiers: 0, isAutoRepeat: false, time: 1, window: 7)
    }

    @Test("Agents hear the events they chose and no others")
    func filtering() {
        let spy = KeyboardSpy()
        let presses = Agent([.keyPress])
        let all = Agent([.keyPress, .keyRelease, .focusIn, .focusOut])
        spy.spy(on: presses)
        spy.spy(on: all)
        spy.dispatch(key("a"))
        spy.dispatch(key("a", press: false))
        spy.dispatchFocus(isIn: true, window: 7)
        spy.dispatchFocus(isIn: false, window: 7)
        #expect(presses.heard.map(\.0) == [.keyPress])
        #expect(all.heard.map(\.0) == [.keyPress, .keyRelease, .focusIn, .focusOut])
        #expect(all.heard.first?.1 == "a")
    }

    @Test("A released agent is dropped and never called")
    func weakAgents() {
        let spy = KeyboardSpy()
        var calls = 0
        var agent: Agent? = Agent([.keyPress]) { calls += 1 }
        spy.spy(on: agent!)
        spy.dispatch(key("x"))
        #expect(calls == 1)
        agent = nil
        spy.dispatch(key("y"))
        #expect(calls == 1)
        #expect(spy.agentCount == 0)
    }

    @Test("unspy stops the calls; spying twice calls once")
    func unspy() {
        let spy = KeyboardSpy()
        let a = Agent([.keyPress])
        spy.spy(on: a)
        spy.spy(on: a)
        spy.dispatch(key("1"))
        #expect(a.heard.count == 1)
        spy.unspy(on: a)
        spy.dispatch(key("2"))
        #expect(a.heard.count == 1)
    }

    @Test("Default handler: an agent with an array of events and no handler of its own is kept and ignores them")
    func defaults() {
        let spy = KeyboardSpy()
        let q = Quiet()
        #expect(q.keyboardEventsToSpyOn == [.keyPress])
        spy.spy(on: q)
        spy.dispatch(key("z"))
        #expect(spy.agentCount == 1)
    }

    @Test("Focus coming and going is the software keyboard's show and hide, with zero frames")
    func keyboardShowHide() {
        let spy = KeyboardSpy()
        let a = Agent([.willShow, .didShow, .willHide, .didHide, .willChangeFrame, .didChangeFrame])
        final class Frames: KeyboardSpyAgent {
            var keyboardEventsToSpyOn: [KeyboardSpyEvent] = [.willShow]
            var seen: [KeyboardSpyInfo] = []
            func keyboardSpyEventProcessed(event: KeyboardSpyEvent, keyboardInfo: KeyboardSpyInfo) { seen.append(keyboardInfo) }
        }
        let f = Frames()
        spy.spy(on: a)
        spy.spy(on: f)
        spy.dispatchFocus(isIn: true, window: 7)
        spy.dispatchFocus(isIn: false, window: 7)
        #expect(a.heard.map(\.0) == [.willShow, .willChangeFrame, .didChangeFrame, .didShow,
                                       .willHide, .willChangeFrame, .didChangeFrame, .didHide])
        let info = f.seen.first
        #expect(f.seen.count == 1)
        #expect(info?.endFrame == Rect(x: 0, y: 0, width: 0, height: 0))
        #expect(info?.beginFrame == Rect(x: 0, y: 0, width: 0, height: 0))
        #expect(info?.keyboardHeight == 0)
        #expect(info?.animationDuration == 0)
        #expect(info?.animationCurve == .linear)
        #expect(info?.isLocal == true)
        #expect(info?.window == 7)
    }
}
