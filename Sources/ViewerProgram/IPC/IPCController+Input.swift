import FoundationEssentials
import Viewer

/// Input and messages: client key bindings, `keypress`, `script-message` between
/// clients, and text on screen with mpv's property expansion.
extension IPCController {
    static let inputHandlers: [String: Handler] = [
        "keypress": { c, i in try c.press(i.command.text(0)!); return nil },
        "keydown": { c, i in try c.press(i.command.text(0)!); return nil },
        "keyup": { _, _ in nil },
        "keybind": { c, i in try c.keys.bind(i.command.text(0)!, i.command.text(1)!); return nil },
        "define-section": { c, i in c.keys.define(i.command.text(0)!, i.command.text(1)!); return nil },
        "enable-section": { c, i in c.keys.enable(i.command.text(0)!); return nil },
        "disable-section": { c, i in c.keys.disable(i.command.text(0)!); return nil },
        "script-message": { c, i in c.broadcast("client-message", ["args": .array(i.command.args)]); return nil },
        "script-message-to": { c, i in
            // To the clients of that name; with none, nobody hears it, as in mpv with no such script.
            let target = i.command.text(0)!
            let line = IPCRequest.event("client-message", ["args": .array(Array(i.command.args.dropFirst()))])
            for (fd, client) in c.clients where client.name == target { c.server.send(line, to: fd) }
            return nil
        },
    ]

    /// A key as if pressed in the window: a client's binding, else the built-in one. The
    /// name is read as mpv reads it (`ctrl+0` is `Ctrl+0`); one that names no key fails,
    /// as in mpv, rather than doing nothing without a word.
    func press(_ key: String) throws(IPCError) {
        guard let name = InputBindings.keyName(key) else { throw .command }
        if let bound = keys.command(for: name) { runText(bound, from: nil); return }
        if let c = queue.presentation.bindings.command(for: name) { queue.execute(c) }
    }

    static let textHandlers: [String: Handler] = [
        "show-text": { c, i in
            let text = i.expanding ? c.expand(i.command.text(0)!) : i.command.text(0)!
            let ms = i.command.number(1).flatMap { $0 >= 0 ? $0 : nil } ?? 1000
            c.queue.current?.showMessage(text, seconds: ms / 1000)
            return nil
        },
        "show-progress": { c, _ in
            c.queue.current?.showMessage(c.expand("${time-pos} / ${duration}"))
            return nil
        },
        "print-text": { c, i in
            print(i.expanding ? c.expand(i.command.text(0)!) : i.command.text(0)!)
            return nil
        },
        "expand-text": { c, i in .string(c.expand(i.command.text(0)!)) },
        "expand-path": { _, i in .string(expandPath(i.command.text(0)!)) },
    ]

    /// `~/` as the home directory, `~~/` as mediaview's configuration directory.
    static func expandPath(_ path: String) -> String {
        let env = ProcessInfo.processInfo.environment
        let home = env["HOME"] ?? ""
        if path.hasPrefix("~~/") || path == "~~" {
            let config = env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
            return config + "/mediaview" + path.dropFirst(2)
        }
        if path.hasPrefix("~/") || path == "~" { return home + path.dropFirst(1) }
        return path
    }

    /// mpv's property expansion: `${NAME}`, `${NAME:FALLBACK}`, `${?NAME:TEXT}` (when it has
    /// a value), `${!NAME:TEXT}` (when it has none), `$$` for a dollar sign.
    func expand(_ text: String) -> String {
        var out = ""
        var rest = text[...]
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.first == "$" { out += "$"; rest = rest.dropFirst(); continue }
            guard rest.first == "{", let close = matchingBrace(rest) else { out += "$"; continue }
            out += expansion(String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    private func matchingBrace(_ s: Substring) -> Substring.Index? {
        var depth = 0
        for i in s.indices {
            if s[i] == "{" { depth += 1 } else if s[i] == "}" { depth -= 1; if depth == 0 { return i } }
        }
        return nil
    }

    private func expansion(_ inner: String) -> String {
        var body = inner[...]
        let mode = body.first == "?" || body.first == "!" ? body.removeFirst() : nil
        let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0].filter { $0 != "=" })
        let value = try? value(of: name)
        let alternative = parts.count > 1 ? expand(String(parts[1])) : nil
        switch mode {
        case "?": return value != nil && value != .bool(false) ? alternative ?? "" : ""
        case "!": return value == nil || value == .bool(false) ? alternative ?? "" : ""
        default: return value.map { Self.shown($0, name) } ?? alternative ?? "(unavailable)"
        }
    }

    /// A value as mpv's OSD writes it: times as `HH:MM:SS`, flags as yes/no.
    private static func shown(_ v: JSONValue, _ name: String) -> String {
        let times: Set<String> = ["time-pos", "playback-time", "duration", "time-remaining", "playtime-remaining"]
        guard times.contains(name), let d = v.number, d >= 0 else { return IPCPropertyPath.string(v) }
        let s = Int(d.rounded(.down))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return two(s / 3600) + ":" + two(s / 60 % 60) + ":" + two(s % 60)
    }
}
