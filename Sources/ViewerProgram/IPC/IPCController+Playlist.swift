import FoundationEssentials
import Viewer
import Web

/// The playlist as mpv's scripts see and edit it: every item in order, those seen before
/// the one on screen first; `loadfile` with all its placements, `playlist-remove`,
/// `playlist-clear`, `stop`, jumps that do not open the items in between.
extension IPCController {
    static let playlistRows: [(String, PropertyRow)] = [
        ("playlist", PropertyRow { c in .array(c.queue.playlist.enumerated().map { c.entry($0.element, at: $0.offset) }) }),
        ("playlist-count", PropertyRow { c in .int(c.queue.itemCount) }),
        ("playlist-pos", PropertyRow(get: { c in .int(c.queue.playlistPosition ?? -1) },
                                     set: { c, v in try c.jump(to: v, base: 0) })),
        ("playlist-pos-1", PropertyRow(get: { c in .int((c.queue.playlistPosition ?? -1) + 1) },
                                       set: { c, v in try c.jump(to: v, base: 1) })),
        ("playlist-current-pos", PropertyRow(get: { c in .int(c.queue.playlistPosition ?? -1) },
                                             set: { c, v in try c.jump(to: v, base: 0) })),
        ("playlist-playing-pos", PropertyRow { c in .int(c.queue.playlistPosition ?? -1) }),
    ]

    /// One entry of mpv's `playlist`.
    func entry(_ v: MediaView, at index: Int) -> JSONValue {
        var o: [String: JSONValue] = ["filename": .string(v.mediaURL.map(SourceOptions.redacted) ?? "")]
        o["id"] = .int(Self.entryID(v))
        if v === queue.current { o["current"] = true; o["playing"] = true }
        if let t = v.title ?? v.info?.title { o["title"] = .string(t) }
        return .object(o)
    }

    /// Presents item `value - base` straight away (the ones between are not opened);
    /// -1 (with base 0) empties the screen as mpv's "no file".
    func jump(to value: JSONValue, base: Int) throws(IPCError) {
        guard case .int(let n) = try? IPCSignature.convert(value, to: .integer) else { throw IPCError.propertyFormat }
        let index = n - base
        if index == -1 { stop(); return }
        guard queue.playlist.indices.contains(index) else { throw IPCError.propertyError }
        if queue.playlistPosition == nil { queue.present(mediaView: queue.playlist[index]) } else { queue.presentItem(at: index) }
    }

    static let playlistHandlers: [String: Handler] = [
        "loadfile": { c, i in try c.load(i.command.text(0)!, flags: i.command.text(1), index: i.command.arg(2)) },
        "loadlist": { c, i in try c.loadList(i.command.text(0)!, flags: i.command.text(1)) },
        "playlist-next": { c, i in try c.step(forward: true, flags: i.command.text(0)) },
        "playlist-prev": { c, i in try c.step(forward: false, flags: i.command.text(0)) },
        "playlist-play-index": { c, i in
            switch i.command.text(0)! {
            case "current": if let p = c.queue.playlistPosition { try c.jump(to: .int(p), base: 0) }
            case "none": c.stop()
            default: try c.jump(to: i.command.args[0], base: 0)
            }
            return nil
        },
        "playlist-clear": { c, _ in
            // Everything but the item on screen, as mpv.
            if let v = c.queue.current { c.queue.replaceAll(with: v) } else { c.queue.removeAll() }
            return nil
        },
        "playlist-remove": { c, i in
            let text = i.command.text(0)!
            guard let index = text == "current" ? c.queue.playlistPosition : Int(text),
                  c.queue.playlist.indices.contains(index) else { throw IPCError.command }
            c.queue.removeItem(at: index)
            return nil
        },
        "stop": { c, _ in c.stop(); return nil },
    ]

    /// `loadfile`: mpv's flags say where the item goes and whether it is shown now.
    func load(_ url: String, flags: String?, index: JSONValue?) throws(IPCError) -> JSONValue? {
        let flag = flags ?? "replace"
        guard ["replace", "append", "append-play", "insert-next", "insert-next-play", "insert-at", "insert-at-play"]
            .contains(flag) else { throw IPCError.invalidParameter }
        // makeView adopts the view: one entry id, one relay, so each event comes once.
        let view = makeView(url)
        let position = queue.playlistPosition
        switch flag {
        case "replace": queue.replaceAll(with: view)
        case "append", "append-play": queue.queue(mediaView: view)
        case "insert-next", "insert-next-play": queue.insert(view, at: (position ?? queue.itemCount - 1) + 1)
        default:
            guard case .int(let at)? = index else { throw IPCError.invalidParameter }
            queue.insert(view, at: at < 0 ? queue.itemCount : at)
        }
        if flag.hasSuffix("-play"), queue.current == nil { queue.present(mediaView: view) }
        return .object(["playlist_entry_id": .int(Self.entryID(view))])
    }

    /// `loadlist`: a text file of paths or URLs, one a line (`#` lines skipped, as in M3U).
    func loadList(_ path: String, flags: String?) throws(IPCError) -> JSONValue? {
        guard let data = FileManager.default.contents(atPath: path) else { throw IPCError.command }
        let dir = path.split(separator: "/").dropLast().joined(separator: "/")
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { String($0.drop { $0 == " " || $0 == "\t" }) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !lines.isEmpty else { throw IPCError.command }
        var flag = flags ?? "replace"
        for line in lines {
            let item = line.hasPrefix("/") || line.contains("://") ? line : (path.hasPrefix("/") ? "/" : "") + dir + "/" + line
            _ = try load(item, flags: flag, index: nil)
            if flag == "replace" { flag = "append" }
        }
        return nil
    }

    /// `playlist-next`/`-prev`: past either end nothing happens (mpv's default, `weak`),
    /// and the command says so; with `force` the end of the playlist empties the screen.
    func step(forward: Bool, flags: String?) throws(IPCError) -> JSONValue? {
        guard let p = queue.playlistPosition else { throw IPCError.command }
        let target = forward ? p + 1 : p - 1
        guard queue.playlist.indices.contains(target) else {
            if flags == "force" { stop(); return nil }
            throw IPCError.command
        }
        if forward { queue.presentNext() } else { queue.presentPrevious() }
        return nil
    }

    /// `stop`: nothing on screen and an empty playlist (a queue always shows its first
    /// item, so `keep-playlist` cannot keep it). Without `--idle` the program ends, as mpv
    /// does; with it the window stays for the next `loadfile`.
    func stop() {
        queue.removeAll()
        if !queue.presentation.idles { queue.quit() }
    }
}
