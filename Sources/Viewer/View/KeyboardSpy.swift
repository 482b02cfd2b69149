import Windowing

/// The key and focus events an agent can ask for.
public enum KeyboardSpyEvent: Sendable, Hashable {
    /// A key went down (auto-repeats too).
    case keyPress
    /// A key came up.
    case keyRelease
    /// The window took the keyboard focus.
    case focusIn
    /// The window lost the keyboard focus.
    case focusOut
    /// The keyboard is about to type into the view's window: it takes the focus. A desktop
    /// keyboard has no on-screen frame, so the info's frames are zero.
    case willShow
    /// The view's window took the keyboard focus.
    case didShow
    /// The keyboard is about to stop typing into the window: the focus leaves it.
    case willHide
    /// The focus left the view's window.
    case didHide
    /// The keyboard's frame is about to change: with each focus change (from and to zero).
    case willChangeFrame
    /// The keyboard's frame changed, with each focus change.
    case didChangeFrame
}

/// What an agent is told: the key, the text it types, modifiers, time and window.
public struct KeyboardSpyInfo: Sendable, Equatable {
    /// What happened.
    public var event: KeyboardSpyEvent
    /// The key, for key events; nil for focus events.
    public var key: KeyEvent?
    /// The X window it happened in.
    public var window: UInt

    /// The X keysym, 0 for focus events.
    public var keysym: UInt { key?.keysym ?? 0 }
    /// The key's mpv-style name (`Ctrl+RIGHT`), if it has one.
    public var keyName: String? { key?.name }
    /// The text the key types in the keyboard layout, or empty.
    public var text: String { key?.text ?? "" }
    /// X's modifier mask.
    public var modifiers: UInt32 { key?.modifiers ?? 0 }
    /// The press is the keyboard's auto-repeat.
    public var isAutoRepeat: Bool { key?.isAutoRepeat ?? false }
    /// The X server's time of the event, in milliseconds.
    public var time: UInt { key?.time ?? 0 }

    /// Where an on-screen keyboard was before the event: always the zero rectangle, since
    /// a desktop keyboard covers nothing of the screen.
    public var beginFrame: Rect { Rect(x: 0, y: 0, width: 0, height: 0) }
    /// Where an on-screen keyboard is after the event: the zero rectangle, as `beginFrame`.
    public var endFrame: Rect { Rect(x: 0, y: 0, width: 0, height: 0) }
    /// How a keyboard frame moves: nothing moves on a desktop, so `.linear` over zero seconds.
    public var animationCurve: KeyboardAnimationCurve { .linear }
    /// How long the keyboard's motion takes: 0, a desktop keyboard does not slide in.
    public var animationDuration: Double { 0 }
    /// Whether the focus change is in this process's own window: always, as X only reports
    /// focus to the window that gains or loses it.
    public var isLocal: Bool { true }
    /// The height the keyboard covers: 0 on a desktop, so layouts need not move.
    public var keyboardHeight: Double { 0 }
}

/// How an on-screen keyboard's frame moves, with UIKit's names (a desktop's never moves).
public enum KeyboardAnimationCurve: Sendable {
    /// Slow start and end.
    case easeInOut
    /// Slow start.
    case easeIn
    /// Slow end.
    case easeOut
    /// Even speed.
    case linear
}

/// An observer of keyboard events, as KeyboardSpy's agents are.
///
/// An agent names the events it wants, as an array: `var keyboardEventsToSpyOn:
/// [KeyboardSpyEvent] = [.keyPress, .focusIn]`.
@MainActor
public protocol KeyboardSpyAgent: AnyObject {
    /// The events this agent wants.
    var keyboardEventsToSpyOn: [KeyboardSpyEvent] { get }
    /// One of the wanted events happened.
    func keyboardSpyEventProcessed(event: KeyboardSpyEvent, keyboardInfo: KeyboardSpyInfo)
}

/// The default handler.
public extension KeyboardSpyAgent {
    /// Does nothing, for an agent that only counts on being registered.
    func keyboardSpyEventProcessed(event: KeyboardSpyEvent, keyboardInfo: KeyboardSpyInfo) {}
}

/// Routes the window's key and focus events to agents.
///
/// Agents are held weakly: one that goes away is dropped and never called after its
/// deinit, which is the MetovaBase rule (register on start, nothing dangles after).
@MainActor
public final class KeyboardSpy {
    /// The spy the viewer's windows report to.
    public static let shared = KeyboardSpy()

    private struct Entry { weak var agent: KeyboardSpyAgent? }
    private var entries: [Entry] = []

    /// A spy of its own, for an app that routes events itself.
    public init() {}

    /// Starts telling `agent` about the events it chose. Adding twice has no extra effect.
    public static func spy(on agent: KeyboardSpyAgent) { shared.spy(on: agent) }
    /// Stops telling `agent` anything.
    public static func unspy(on agent: KeyboardSpyAgent) { shared.unspy(on: agent) }

    /// Starts telling `agent` about the events it chose.
    public func spy(on agent: KeyboardSpyAgent) {
        entries.removeAll { $0.agent == nil }
        guard !entries.contains(where: { $0.agent === agent }) else { return }
        entries.append(Entry(agent: agent))
    }

    /// Stops telling `agent` anything.
    public func unspy(on agent: KeyboardSpyAgent) {
        entries.removeAll { $0.agent == nil || $0.agent === agent }
    }

    /// Live agents, for tests and diagnostics.
    public var agentCount: Int { entries.filter { $0.agent != nil }.count }

    /// Delivers a key event from a window.
    public func dispatch(_ key: KeyEvent) {
        let ev: KeyboardSpyEvent = key.isPress ? .keyPress : .keyRelease
        deliver(KeyboardSpyInfo(event: ev, key: key, window: key.window))
    }

    /// Delivers a focus change of a window.
    ///
    /// Keyboard focus is the desktop's form of the software keyboard: focus coming to a
    /// window is `willShow`, `willChangeFrame`, `focusIn`, `didChangeFrame`, `didShow`;
    /// leaving it is the `Hide` events around `focusOut`.
    public func dispatchFocus(isIn: Bool, window: UInt) {
        let order: [KeyboardSpyEvent] = isIn
            ? [.willShow, .willChangeFrame, .focusIn, .didChangeFrame, .didShow]
            : [.willHide, .willChangeFrame, .focusOut, .didChangeFrame, .didHide]
        for e in order { deliver(KeyboardSpyInfo(event: e, key: nil, window: window)) }
    }

    private func deliver(_ info: KeyboardSpyInfo) {
        entries.removeAll { $0.agent == nil }
        // A copy: an agent may spy or unspy others while being called.
        for e in entries {
            guard let a = e.agent, a.keyboardEventsToSpyOn.contains(info.event) else { continue }
            a.keyboardSpyEventProcessed(event: info.event, keyboardInfo: info)
        }
    }
}
