import Viewer

/// One command of mpv's JSON IPC that mediaview understands, checked and typed.
///
/// mpv users' scripts send `["loadfile", "x.mp4", "append-play"]` or `["seek", 30,
/// "absolute"]`; `parse(_:)` turns such an array into a case or throws the error string mpv
/// would answer. Any command a key can be bound to (`cycle pause`, `add volume 2`) is
/// accepted too, so what works in input.conf works on the socket.
public enum IPCCommand: Equatable, Sendable {
    /// Queue a file or URL.
    case loadfile(String, LoadMode)
    /// Present the next item.
    case playlistNext
    /// Go back to the item before.
    case playlistPrev
    /// Seek by or to a target.
    case seek(Double, SeekMode)
    /// Answer a property's value.
    case getProperty(String)
    /// Change a property.
    case setProperty(String, JSONValue)
    /// Send `property-change` events for a property, under the client's id.
    case observeProperty(id: Int, name: String)
    /// Stop the events of an observation.
    case unobserveProperty(id: Int)
    /// End the program.
    case quit
    /// A key-binding command (`cycle pause`, `add volume 2`, `cycle fullscreen`).
    case binding(PlayerCommand)

    /// Where `loadfile` puts the item, as mpv's flags say.
    public enum LoadMode: String, Equatable, Sendable, CaseIterable {
        /// The queue becomes this one item, shown at once (mpv's default).
        case replace
        /// Added at the end.
        case append
        /// Added at the end, and shown if nothing is showing.
        case appendPlay = "append-play"
    }

    /// How a `seek` target is read.
    public enum SeekMode: String, Equatable, Sendable, CaseIterable {
        /// Seconds from the current position (mpv's default).
        case relative
        /// Seconds from the start.
        case absolute
        /// Percent of the duration.
        case absolutePercent = "absolute-percent"
    }

    /// The command an mpv IPC `command` array asks for; throws mpv's error for an unknown
    /// command or bad arguments.
    public static func parse(_ words: [JSONValue]) throws(IPCError) -> IPCCommand {
        guard let name = words.first?.text else { throw .invalidParameter }
        let args = Array(words.dropFirst())
        switch name {
        case "loadfile":
            guard (1...3).contains(args.count), let url = args[0].text, !url.isEmpty else { throw .invalidParameter }
            let flag = args.count > 1 ? args[1].text ?? "" : "replace"
            guard let mode = LoadMode(rawValue: flag) else { throw .invalidParameter }
            return .loadfile(url, mode)
        case "playlist-next", "playlist-prev":
            // mpv's optional "weak"/"force" flag changes nothing here.
            guard args.count <= 1 else { throw .invalidParameter }
            return name == "playlist-next" ? .playlistNext : .playlistPrev
        case "seek":
            guard (1...3).contains(args.count), let target = args[0].number else { throw .invalidParameter }
            return .seek(target, try seekMode(args.count > 1 ? args[1].text : nil))
        case "get_property":
            guard args.count == 1, let property = args[0].text else { throw .invalidParameter }
            return .getProperty(property)
        case "set_property":
            guard args.count == 2, let property = args[0].text else { throw .invalidParameter }
            return .setProperty(property, args[1])
        case "observe_property":
            guard args.count == 2, case .int(let id) = args[0], let property = args[1].text else { throw .invalidParameter }
            return .observeProperty(id: id, name: property)
        case "unobserve_property":
            guard args.count == 1, case .int(let id) = args[0] else { throw .invalidParameter }
            return .unobserveProperty(id: id)
        case "quit":
            guard args.count <= 1 else { throw .invalidParameter }
            return .quit
        default:
            let text = words.compactMap(\.text)
            guard text.count == words.count, let c = try? PlayerCommand.parse(text.joined(separator: " ")) else {
                throw .invalidParameter
            }
            return .binding(c)
        }
    }

    /// The mode of mpv's seek flags: `relative`, `absolute`, `absolute-percent`, with
    /// `exact` or `keyframes` joined by `+` (every seek here is exact).
    private static func seekMode(_ flags: String?) throws(IPCError) -> SeekMode {
        var mode = SeekMode.relative
        for flag in (flags ?? "").split(separator: "+") {
            if let m = SeekMode(rawValue: String(flag)) { mode = m }
            else if flag != "exact" && flag != "keyframes" { throw .invalidParameter }
        }
        return mode
    }
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
