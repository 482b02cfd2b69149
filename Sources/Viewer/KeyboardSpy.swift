import Windowing

/// The key and focus events an agent can ask for.
public enum KeyboardSpyEvent: Sendable, Hashable {
    case keyPress, keyRelease, focusIn, focusOut
}

/// What an agent is told: the key, the text it types, modifiers, time and window.
public struct KeyboardSpyInfo: Sendable, Equatable {
    public var event: KeyboardSpyEvent
    /// The key, for key events; nil for focus events.
    public var key: KeyEvent?
    public var window: UInt

    public var keysym: UInt { key?.keysym ?? 0 }
    public var keyName: String? { key?.name }
    public var text: String { key?.text ?? "" }
    public var modifiers: UInt32 { key?.modifiers ?? 0 }
    public var isAutoRepeat: Bool { key?.isAutoRepeat ?? false }
    public var time: UInt { key?.time ?? 0 }
}

/// An observer of keyboard events (the seed's `KeyboardSpyAgent`).
///
/// Both members have defaults, so an agent names only what it needs.
@MainActor
public protocol KeyboardSpyAgent: AnyObject {
    /// The events this agent wants.
    var keyboardEventsToSpyOn: Set<KeyboardSpyEvent> { get }
    func keyboardSpyEventProcessed(event: KeyboardSpyEvent, keyboardInfo: KeyboardSpyInfo)
}

public extension KeyboardSpyAgent {
    var keyboardEventsToSpyOn: Set<KeyboardSpyEvent> { [.keyPress] }
    func keyboardSpyEventProcessed(event: KeyboardSpyEvent, keyboardInfo: KeyboardSpyInfo) {}
}

/// Routes the window's key and focus events to agents.
///
/// Agents are held weakly: one that goes away is dropped and never called after its
/// deinit, which is the MetovaBase rule (register on start, nothing dangles after).
@MainActor
public final class KeyboardSpy {
    public static let shared = KeyboardSpy()

    private struct Entry { weak var agent: KeyboardSpyAgent? }
    private var entries: [Entry] = []

    public init() {}

    /// Starts telling `agent` about the events it chose. Adding twice has no extra effect.
    public static func spy(on agent: KeyboardSpyAgent) { shared.spy(on: agent) }
    /// Stops telling `agent` anything.
    public static func unspy(on agent: KeyboardSpyAgent) { shared.unspy(on: agent) }

    public func spy(on agent: KeyboardSpyAgent) {
        entries.removeAll { $0.agent == nil }
        guard !entries.contains(where: { $0.agent === agent }) else { return }
        entries.append(Entry(agent: agent))
    }

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
