/// Every command the socket accepts, with mpv's parameter names and types.
///
/// A row is the command's name and its parameters written `name:type`, `?` for optional,
/// `...` for any number of strings after (types: `s` string, `n` number, `i` integer,
/// `a` any value). Commands that only tune mpv itself are here too, so scripts that send
/// them keep working; what each does is in `IPCController.handlers` and in
/// docs/ipc-conformance.md.
extension IPCCommand {
    /// The accepted commands by name.
    public static let signatures: [String: IPCSignature] = {
        var table: [String: IPCSignature] = [:]
        for (name, spec) in rows { table[name] = signature(spec) }
        return table
    }()

    private static let rows: [(String, String)] = [
        // The IPC's own commands.
        ("client_name", ""), ("get_time_us", ""), ("get_version", ""),
        ("get_property", "name:s"), ("get_property_string", "name:s"),
        ("set_property", "name:s value:a"), ("set_property_string", "name:s value:s"),
        ("observe_property", "id:i name:s"), ("observe_property_string", "id:i name:s"),
        ("unobserve_property", "id:i"), ("request_log_messages", "level:s"),
        ("enable_event", "name:s"), ("disable_event", "name:s"),
        // Playback.
        ("seek", "target:n flags:s? legacy:s?"), ("revert-seek", "flags:s?"),
        ("frame-step", "frames:i? flags:s?"), ("frame-back-step", ""),
        ("set", "name:s value:s"), ("add", "name:s value:n?"), ("multiply", "name:s value:n"),
        ("cycle", "name:s value:s?"), ("cycle-values", "..."), ("del", "name:s"),
        ("stop", "flags:s?"), ("quit", "code:i?"), ("quit-watch-later", "code:i?"),
        ("screenshot", "flags:s? legacy:s?"), ("screenshot-to-file", "filename:s flags:s?"),
        // The playlist.
        ("loadfile", "url:s flags:s? index:i? options:a?"), ("loadlist", "url:s flags:s? index:i?"),
        ("playlist-next", "flags:s?"), ("playlist-prev", "flags:s?"), ("playlist-play-index", "index:s flags:s?"),
        ("playlist-clear", ""), ("playlist-remove", "index:s"), ("playlist-move", "index1:i index2:i"),
        ("playlist-shuffle", ""), ("playlist-unshuffle", ""), ("playlist-next-playlist", ""),
        ("playlist-prev-playlist", ""),
        // Text on screen and in the terminal.
        ("show-text", "text:s duration:i? level:i?"), ("print-text", "text:s"), ("expand-text", "text:s"),
        ("expand-path", "text:s"), ("show-progress", ""), ("osd-overlay", "id:i format:s data:s? res_x:i? res_y:i? z:i? hidden:s? compute_bounds:s?"),
        // Input.
        ("keypress", "name:s scale:n?"), ("keydown", "name:s"), ("keyup", "name:s?"), ("keybind", "name:s cmd:s comment:s?"),
        ("define-section", "name:s contents:s flags:s?"), ("enable-section", "name:s flags:s?"),
        ("disable-section", "name:s"), ("mouse", "x:i y:i button:i? mode:s?"), ("ignore", ""),
        ("script-message", "..."), ("script-message-to", "target:s ..."), ("script-binding", "name:s arg:i? scale:n?"),
        // Tracks and what only tunes mpv.
        ("sub-add", "url:s flags:s? title:s? lang:s?"), ("sub-remove", "id:i?"), ("sub-reload", "id:i?"),
        ("sub-step", "skip:i flags:s?"), ("sub-seek", "skip:i flags:s?"), ("audio-add", "url:s flags:s? title:s? lang:s?"),
        ("audio-remove", "id:i?"), ("audio-reload", "id:i?"), ("video-add", "url:s flags:s? title:s? lang:s?"),
        ("video-remove", "id:i?"), ("video-reload", "id:i?"), ("rescan-external-files", "mode:s?"),
        ("af", "operation:s value:s"), ("vf", "operation:s value:s"), ("af-command", "label:s command:s argument:s target:s?"),
        ("vf-command", "label:s command:s argument:s target:s?"), ("ao-reload", ""), ("drop-buffers", ""),
        ("apply-profile", "name:s mode:s?"), ("load-script", "filename:s"), ("load-config-file", "filename:s"),
        ("load-input-conf", "filename:s"), ("write-watch-later-config", ""), ("delete-watch-later-config", "filename:s?"),
        ("run", "command:s ..."), ("subprocess", "args:a playback_only:s? capture_size:i? capture_stdout:s? capture_stderr:s? detach:s? env:a? stdin_data:s? passthrough_stdin:s?"),
        ("overlay-add", "id:i x:i y:i file:s offset:i fmt:s w:i h:i stride:i dw:i? dh:i?"), ("overlay-remove", "id:i"),
        ("hook-add", "arg0:s arg1:i arg2:i"), ("hook-ack", "arg0:i"), ("change-list", "name:s operation:s value:s?"),
        ("dump-cache", "start:n end:n filename:s"), ("ab-loop", ""), ("ab-loop-dump-cache", "filename:s"),
        ("ab-loop-align-cache", ""), ("begin-vo-dragging", ""), ("context-menu", ""),
    ]

    /// A row's parameter text as a signature.
    private static func signature(_ spec: String) -> IPCSignature {
        var s = IPCSignature(parameters: [])
        for word in spec.split(separator: " ") {
            if word == "..." { s.variadic = true; continue }
            let parts = word.split(separator: ":")
            let type = parts[1]
            let optional = type.hasSuffix("?")
            let kind: IPCSignature.Kind
            switch type.first {
            case "n": kind = .number
            case "i": kind = .integer
            case "a": kind = .any
            default: kind = .string
            }
            s.parameters.append(.init(name: String(parts[0]), kind: kind, optional: optional))
        }
        return s
    }
}
