import MediaCore
import Playback
import Viewer

/// The command table: every command of `IPCCommand.signatures` has its row here, grouped
/// by what it acts on, so a new command is one more row rather than one more case.
extension IPCController {
    /// Every command's handler by name.
    static let handlers: [String: Handler] = {
        var t: [String: Handler] = [:]
        for part in [clientHandlers, playbackHandlers, playlistHandlers, inputHandlers, textHandlers] {
            t.merge(part) { a, _ in a }
        }
        for name in acceptedCommands { t[name] = { _, _ in nil } }
        for name in refusedCommands { t[name] = refuse }
        return t
    }()

    private static func refuse(_: IPCController, _: Invocation) throws -> JSONValue? { throw IPCError.command }

    /// Commands that only tune mpv itself (its log, its profiles, its audio output, its
    /// script hooks): accepted and ignored, so scripts that send them go on.
    static let acceptedCommands: Set<String> = [
        "ignore", "request_log_messages", "apply-profile", "ao-reload", "drop-buffers", "write-watch-later-config",
        "delete-watch-later-config", "rescan-external-files", "hook-add", "hook-ack", "overlay-remove", "mouse",
        "begin-vo-dragging", "context-menu", "script-binding",
    ]

    /// Commands mpv carries out and mediaview cannot (filters, adding tracks to a playing
    /// file, running programs, Lua scripts): refused with mpv's command error.
    static let refusedCommands: Set<String> = [
        "revert-seek", "del", "sub-add", "sub-remove", "sub-reload", "sub-step", "sub-seek", "audio-add", "audio-remove",
        "audio-reload", "video-add", "video-remove", "video-reload", "af", "vf", "af-command", "vf-command", "load-script",
        "load-config-file", "load-input-conf", "run", "subprocess", "overlay-add", "osd-overlay", "change-list",
        "dump-cache", "ab-loop", "ab-loop-dump-cache", "ab-loop-align-cache", "playlist-move", "playlist-shuffle",
        "playlist-unshuffle", "playlist-next-playlist", "playlist-prev-playlist",
    ]

    /// The IPC's own commands: properties, observation, events, the client's name.
    static let clientHandlers: [String: Handler] = [
        "client_name": { c, i in .string(c.clients[i.client]?.name ?? "ipc") },
        "get_version": { _, _ in .int(0x0002_0005) },
        "get_time_us": { _, _ in .int(Int(MonotonicClock.seconds() * 1_000_000)) },
        "get_property": { c, i in try c.value(of: i.command.text(0)!) },
        "get_property_string": { c, i in .string(IPCPropertyPath.string(try c.value(of: i.command.text(0)!))) },
        "set_property": { c, i in try c.set(i.command.text(0)!, to: i.command.args[1]); return nil },
        "set_property_string": { c, i in try c.set(i.command.text(0)!, to: i.command.args[1]); return nil },
        "observe_property": { c, i in try c.observe(i, asString: false) },
        "observe_property_string": { c, i in try c.observe(i, asString: true) },
        "unobserve_property": { c, i in
            c.observations.removeAll { $0.client == i.client && .int($0.id) == i.command.args[0] }
            return nil
        },
        "enable_event": { c, i in c.turnEvent(i.command.text(0)!, on: true, for: i.client); return nil },
        "disable_event": { c, i in c.turnEvent(i.command.text(0)!, on: false, for: i.client); return nil },
    ]

    /// `observe_property`: mpv takes any name; one it does not have is reported without
    /// a value, as mpv does. Past the caps a request is refused, so a client cannot make
    /// every look at the properties send thousands of events.
    func observe(_ i: Invocation, asString: Bool) throws(IPCError) -> JSONValue? {
        guard case .int(let id) = i.command.args[0] else { return nil }
        guard observations.count < Self.maxObservations,
              observations.lazy.filter({ $0.client == i.client }).count < Self.maxObservationsPerClient else { throw .command }
        observations.append(Observation(client: i.client, id: id, name: i.command.text(1)!, asString: asString))
        startWatching()
        return nil
    }

    func turnEvent(_ name: String, on: Bool, for client: Int32) {
        guard var c = clients[client] else { return }
        if name == "all" {
            c.allDisabled = !on
            c.disabled = []
        } else if on {
            c.disabled.remove(name)
            if c.allDisabled {
                // "all" off then one on: every other event stays off.
                c.allDisabled = false
                c.disabled = Set(Self.eventNames).subtracting([name])
            }
        } else {
            c.disabled.insert(name)
        }
        clients[client] = c
    }

    /// The events mediaview sends.
    static let eventNames = ["start-file", "end-file", "file-loaded", "seek", "playback-restart", "idle", "shutdown",
                             "pause", "unpause", "property-change", "client-message", "video-reconfig", "audio-reconfig"]
}
