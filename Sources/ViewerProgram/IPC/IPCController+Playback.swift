import Glibc
import Viewer

/// Playback commands and the generic property commands of input.conf (`set`, `add`,
/// `cycle`, `multiply`, `cycle-values`), which work on any property of the table.
extension IPCController {
    static let playbackHandlers: [String: Handler] = [
        "seek": { c, i in try c.seek(i.command.number(0)!, flags: i.command.text(1)); return nil },
        "frame-step": { c, _ in c.queue.execute(.frameStep(forward: true)); return nil },
        "frame-back-step": { c, _ in c.queue.execute(.frameStep(forward: false)); return nil },
        "set": { c, i in try c.set(i.command.text(0)!, to: i.command.args[1]); return nil },
        "add": { c, i in try c.change(i.command.text(0)!) { $0 + (i.command.number(1) ?? 1) }; return nil },
        "multiply": { c, i in try c.change(i.command.text(0)!) { $0 * i.command.number(1)! }; return nil },
        "cycle": { c, i in try c.cycle(i.command.text(0)!, down: i.command.text(1) == "down"); return nil },
        "cycle-values": { c, i in try c.cycleValues(i.command.args.compactMap(\.text)); return nil },
        "screenshot": { c, _ in c.queue.execute(.screenshot); return nil },
        "screenshot-to-file": { c, i in try c.screenshot(to: i.command.text(0)!); return nil },
        "quit": { c, i in c.quitAfterReply(code: i.command.arg(0)); return nil },
        "quit-watch-later": { c, i in c.quitAfterReply(code: i.command.arg(0)); return nil },
    ]

    /// Ends the program once the reply is on its way, with the exit status asked for.
    func quitAfterReply(code: JSONValue?) {
        if case .int(let n)? = code { exitCode = Int32(truncatingIfNeeded: n) }
        onMainActor(after: 0) { [weak self] in self?.queue.quit() }
    }

    /// mpv's `seek`: `relative` (default), `absolute`, `absolute-percent`, `relative-percent`,
    /// with `exact` or `keyframes` joined by `+` (every seek here is exact).
    func seek(_ target: Double, flags: String?) throws(IPCError) {
        var mode = "relative"
        for flag in (flags ?? "").split(separator: "+").map(String.init) {
            switch flag {
            case "relative", "absolute", "absolute-percent", "relative-percent": mode = flag
            case "exact", "keyframes", "default-precise": break
            default: throw IPCError.invalidParameter
            }
        }
        guard let v = queue.current, v.isPlayable, v.info != nil else { throw IPCError.command }
        let length = v.info.flatMap { self.duration(of: v, $0) }
        switch mode {
        case "absolute": queue.execute(.seekAbsolute(seconds: target < 0 ? max(0, (length ?? 0) + target) : target))
        case "absolute-percent": queue.execute(.seekAbsolutePercent(max(0, min(100, target))))
        case "relative-percent":
            guard let d = length else { throw IPCError.command }
            queue.execute(.seek(seconds: target / 100 * d))
        default: queue.execute(.seek(seconds: target))
        }
    }

    /// `add` and `multiply`: a number property changed from its value now.
    func change(_ name: String, _ f: (Double) -> Double) throws(IPCError) {
        guard let now = try value(of: name).number else { throw IPCError.propertyFormat }
        try set(name, to: .double(f(now)))
    }

    /// `cycle`: a flag flips; the track choices step to the next track, as their keys do.
    func cycle(_ name: String, down: Bool) throws(IPCError) {
        switch name {
        case "sid", "sub": queue.execute(.cycleSubtitles); return
        case "aid", "audio": queue.execute(.cycleAudio); return
        case "loop-file", "loop":
            try set("loop-file", to: .bool(!(try value(of: "loop-file") != .bool(false))))
            return
        default: break
        }
        guard Self.propertyTable[name] != nil else {
            // mediaview's own cyclable settings (track, details, info).
            guard let c = try? PlayerCommand.parse("cycle \(name)") else { throw IPCError.propertyNotFound }
            queue.execute(c)
            return
        }
        guard case .bool(let on) = try value(of: name) else { throw IPCError.propertyFormat }
        try set(name, to: .bool(!on))
    }

    /// `cycle-values [!reverse] NAME V1 V2...`: the value after the one the property has
    /// now (the first when it has none of them).
    func cycleValues(_ words: [String]) throws(IPCError) {
        var w = words[...]
        let reverse = w.first == "!reverse"
        if reverse { w = w.dropFirst() }
        guard let name = w.popFirst(), !w.isEmpty else { throw IPCError.invalidParameter }
        let values = reverse ? Array(w.reversed()) : Array(w)
        let now = (try? value(of: name)).map(IPCPropertyPath.string)
        let at = values.firstIndex { v in now == v || (Double(v) != nil && Double(v) == now.flatMap(Double.init)) }
        try set(name, to: .string(values[at.map { ($0 + 1) % values.count } ?? 0]))
    }

    /// `screenshot-to-file`: the picture on screen, at the media's size, as PNG.
    func screenshot(to path: String) throws(IPCError) {
        guard let png = queue.current?.pictureAsPNG() else { throw IPCError.command }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw IPCError.command }
        defer { close(fd) }
        let written = png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == png.count else { throw IPCError.command }
    }
}
