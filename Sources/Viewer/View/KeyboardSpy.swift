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
    public func dispatchFocus(isIn: Bool, window: UInt) {
        deliver(KeyboardSpyInfo(event: isIn ? .focusIn : .focusOut, key: nil, window: window))
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
