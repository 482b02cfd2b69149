import Viewer

/// One command of mpv's IPC, checked against its signature: the name and its arguments in
/// mpv's order, each of the type mpv's manual gives it, missing optional ones filled in.
///
/// Clients send `["loadfile", "x.mp4", "append-play"]`, the named form
/// `{"name": "loadfile", "url": "x.mp4", "flags": "append-play"}`, or a text line
/// `loadfile "x.mp4" append-play`; all three arrive here as the same value, so what a
/// command does does not depend on how it was written. What it does is the controller's
/// table (`IPCController.handlers`).
public struct IPCCommand: Equatable, Sendable {
    /// mpv's name for the command (`loadfile`, `get_property`, `cycle-values`).
    public var name: String
    /// The arguments, positional, converted to the parameter types of the signature.
    public var args: [JSONValue]

    /// A command from already checked parts.
    public init(name: String, args: [JSONValue]) {
        self.name = name
        self.args = args
    }

    /// The command an mpv `command` array asks for; throws mpv's error for an unknown
    /// command or arguments that do not fit its signature.
    public static func parse(_ words: [JSONValue]) throws(IPCError) -> IPCCommand {
        guard case .string(let name)? = words.first else { throw .invalidParameter }
        guard let signature = signatures[name] else {
            // mediaview's own key commands (`rotate 90`, `gallery`, `zoom 0.1`) work here too,
            // so what works in input.conf works on the socket.
            let text = words.compactMap(\.text)
            guard text.count == words.count, (try? PlayerCommand.parse(text.joined(separator: " "))) != nil else {
                throw .invalidParameter
            }
            return IPCCommand(name: name, args: Array(words.dropFirst()))
        }
        return IPCCommand(name: name, args: try signature.check(Array(words.dropFirst())))
    }

    /// The command of mpv's named form, `{"name": ..., "<parameter>": ...}`.
    public static func parse(named fields: [String: JSONValue]) throws(IPCError) -> IPCCommand {
        guard case .string(let name)? = fields["name"], let signature = signatures[name] else { throw .invalidParameter }
        return IPCCommand(name: name, args: try signature.check(named: fields))
    }

    /// Argument `i` as text; nil when it was not given.
    func text(_ i: Int) -> String? { args.indices.contains(i) ? args[i].text : nil }
    /// Argument `i` as a number; nil when it was not given.
    func number(_ i: Int) -> Double? { args.indices.contains(i) ? args[i].number : nil }
    /// Argument `i` as it came (after conversion); nil when it was not given.
    func arg(_ i: Int) -> JSONValue? { args.indices.contains(i) && args[i] != .null ? args[i] : nil }
}

/// The error strings mpv's IPC answers with, so scripts written for mpv understand them.
public enum IPCError: String, Error, Equatable, Sendable {
    /// Not JSON, not a command, or wrong arguments.
    case invalidParameter = "invalid parameter"
    /// No property of that name.
    case propertyNotFound = "property not found"
    /// The property exists but has no value now (no duration for a still).
    case propertyUnavailable = "property unavailable"
    /// The value has the wrong type for the property.
    case propertyFormat = "unsupported format for accessing property"
    /// The property cannot be set.
    case propertyError = "error accessing property"
    /// The command cannot act now (a seek with nothing that moves on screen).
    case command = "error running command"
}
