import Glibc
import Playback
import Viewer

/// The properties a script can read, set and observe: mpv's names and units, plus
/// `minimized`, which is mediaview's own. Each is one row of `propertyTable`: how to read
/// it, and how to set it when it can be set.
extension IPCController {
    /// One property.
    struct PropertyRow {
        // Untyped throws: the compiler cannot yet lower tables of typed-throwing
        // main-actor closures; every row throws IPCError and the callers narrow it.
        let get: @MainActor (IPCController) throws -> JSONValue
        var set: (@MainActor (IPCController, JSONValue) throws -> Void)?
    }

    /// Every property by name; `property-list` lists these names.
    static let propertyTable: [String: PropertyRow] = {
        var t: [String: PropertyRow] = [:]
        for (name, row) in unavailableRows { t[name] = row }
        for (name, row) in playbackRows { t[name] = row }
        for (name, row) in mediaRows { t[name] = row }
        for (name, row) in playlistRows { t[name] = row }
        for (name, row) in programRows { t[name] = row }
        t["track-list"] = PropertyRow { c in try c.trackList() }
        t["current-tracks"] = PropertyRow { c in try c.currentTracks() }
        for name in ["sid", "aid", "vid", "sub-visibility"] {
            t[name] = PropertyRow(get: { c in try c.trackValue(name) },
                                  set: { c, v in try c.setTrack(name, to: v) })
        }
        return t
    }()

    /// The property's value now, sub-properties included; mpv's errors when it has none.
    func value(of name: String) throws(IPCError) -> JSONValue {
        if let row = Self.propertyTable[name] { return try Self.narrow { try row.get(self) } }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        // The longest leading part that is a property (`filename/no-ext` is one itself).
        for n in stride(from: parts.count - 1, through: 1, by: -1) {
            guard let row = Self.propertyTable[parts[..<n].joined(separator: "/")] else { continue }
            let whole = try Self.narrow { try row.get(self) }
            guard let found = IPCPropertyPath.resolve(whole, parts[n...]) else { throw IPCError.propertyUnavailable }
            return found
        }
        throw IPCError.propertyNotFound
    }

    /// Changes a property as a script asked; mpv's errors for a wrong type or a read-only one.
    func set(_ name: String, to value: JSONValue) throws(IPCError) {
        guard let row = Self.propertyTable[name] else {
            throw name.contains("/") && (try? self.value(of: name)) != nil ? .propertyError : .propertyNotFound
        }
        guard let set = row.set else { throw IPCError.propertyError }
        try Self.narrow { try set(self, value) }
    }

    /// Runs a row's closure, with its error as the IPCError every row throws.
    static func narrow<T>(_ body: () throws -> T) throws(IPCError) -> T {
        do { return try body() } catch let e as IPCError { throw e } catch { throw .command }
    }

    /// The presented view, or mpv's error for a property that needs one.
    func presented() throws(IPCError) -> MediaView {
        guard let v = queue.current else { throw IPCError.propertyUnavailable }
        return v
    }

    /// The presented view's media description, once it has been opened.
    func presentedInfo() throws(IPCError) -> (MediaView, MediaInfo) {
        let v = try presented()
        guard let info = v.info else { throw IPCError.propertyUnavailable }
        return (v, info)
    }

    /// A still shown for a set time (a slide show, `--autoexit`) lasts `--image-duration`;
    /// one that stays until the user moves on has no duration.
    func duration(of v: MediaView, _ info: MediaInfo) -> Double? {
        if info.kind == .image { return queue.presentation.autoExit ? v.imageDuration : nil }
        guard let d = info.duration, d > 0, d.isFinite else { return nil }
        return d
    }

    static let playbackRows: [(String, PropertyRow)] = [
        ("pause", PropertyRow(get: { c in .bool(!(c.queue.current?.isPlaying ?? false)) }, set: { c, v in
            guard let paused = v.flag else { throw IPCError.propertyFormat }
            if paused { c.queue.current?.pause() } else { c.queue.current?.play() }
        })),
        ("core-idle", PropertyRow { c in .bool(!(c.queue.current?.isPlaying ?? false)) }),
        ("idle-active", PropertyRow { c in .bool(c.queue.current == nil) }),
        ("eof-reached", PropertyRow { c in .bool(c.finished.contains(ObjectIdentifier(try c.presented()))) }),
        ("seeking", PropertyRow { c in .bool(c.queue.current.map { c.announced.seeks[ObjectIdentifier($0)] != nil } ?? false) }),
        ("paused-for-cache", PropertyRow { _ in .bool(false) }),
        ("volume", PropertyRow(get: { c in .double((c.player.volume ?? c.queue.current?.volume ?? 1) * 100) }, set: { c, v in
            // Numbers or their text, as mpv takes both; 0-100 here (no amplification).
            guard let n = v.number else { throw IPCError.propertyFormat }
            c.player.volume = max(0, min(100, n)) / 100
            c.applyToAll()
        })),
        ("volume-max", PropertyRow { _ in .double(100) }),
        ("mute", PropertyRow(get: { c in .bool(c.player.muted ?? c.queue.current?.isMuted ?? false) }, set: { c, v in
            guard let muted = v.flag else { throw IPCError.propertyFormat }
            c.player.muted = muted
            c.applyToAll()
        })),
        ("speed", PropertyRow(get: { c in .double(c.queue.current?.playbackSpeed ?? 1) }, set: { c, v in
            // A number or its text, 0.25 to 4; anything else leaves the speed alone.
            guard let n = v.number, PlaybackSpeed(n) != nil else { throw IPCError.propertyFormat }
            c.queue.execute(.speed(.set(n)))
        })),
        ("loop-file", PropertyRow(get: { c in (c.queue.current?.allowLooping ?? c.player.loopFile ?? false) ? .string("inf") : .bool(false) },
                                  set: { c, v in
            let on: Bool
            if let f = v.flag { on = f } else if v.text == "inf" || v.text == "force" { on = true }
            else if let n = v.number { on = n > 0 } else { throw IPCError.propertyFormat }
            c.player.loopFile = on
            c.applyToAll()
        })),
        ("loop-playlist", PropertyRow(get: { _ in .bool(false) }, set: { _, v in
            // The queue does not start over; only "no" is a value it has.
            guard v.flag == false || v.text == "0" else { throw IPCError.propertyError }
        })),
        ("image-display-duration", PropertyRow(get: { c in .double(c.queue.current?.imageDuration ?? c.player.imageDuration ?? 5) },
                                               set: { c, v in
            guard let n = v.number, n > 0 else { throw IPCError.propertyFormat }
            c.player.imageDuration = n
            c.applyToAll()
        })),
        ("fullscreen", PropertyRow(get: { c in .bool(c.queue.current?.isFullscreen ?? false) }, set: { c, v in
            guard let on = v.flag else { throw IPCError.propertyFormat }
            if let view = c.queue.current, view.isFullscreen != on { c.queue.execute(.toggleFullscreen) }
        })),
        ("window-minimized", PropertyRow { c in .bool(c.queue.current?.isMinimized ?? false) }),
        // As mpv answers: `no` reads false (and false sets it), `always` its word, a delay
        // its milliseconds as a number; a number in a string is read too.
        ("cursor-autohide", PropertyRow(get: { c in
            if c.queue.pointerHiding == .never { return .bool(false) }
            let word = ProgramOptions.cursorAutohide(c.queue.pointerHiding)
            return Int(word).map { .int($0) } ?? .string(word)
        }, set: { c, v in
            let text: String
            switch v {
            case .bool(false): text = "no"
            case .string(let s): text = s
            case .int(let n): text = String(n)
            case .double(let n): guard n == n.rounded(), abs(n) < 1e12 else { throw IPCError.propertyError }
                text = String(Int(n))
            default: throw IPCError.propertyFormat
            }
            guard let hiding = try? ProgramOptions.pointerHiding(text) else { throw IPCError.propertyFormat }
            c.queue.pointerHiding = hiding
        })),
        ("minimized", PropertyRow(get: { c in .bool(c.queue.current?.isMinimized ?? false) }, set: { c, v in
            guard let on = v.flag else { throw IPCError.propertyFormat }
            if on { c.queue.current?.minimize() } else { c.queue.current?.restore() }
        })),
    ]

    static let programRows: [(String, PropertyRow)] = [
        ("pid", PropertyRow { _ in .int(Int(getpid())) }),
        ("mpv-version", PropertyRow { _ in .string("mediaview \(ViewerApp.version)") }),
        ("mpv-configuration", PropertyRow { _ in .string("mediaview \(ViewerApp.version), mpv JSON IPC") }),
        ("idle", PropertyRow { c in .string(c.idleMode.rawValue) }),
        ("input-ipc-server", PropertyRow { c in .string(c.server.path) }),
        ("working-directory", PropertyRow { _ in .string(ViewerApp.absoluteInput(".").replacingSuffix("/.")) }),
        ("property-list", PropertyRow { _ in .array(propertyTable.keys.sorted().map { .string($0) }) }),
        ("command-list", PropertyRow { _ in
            .array(IPCCommand.signatures.keys.sorted().map { IPCCommand.signatures[$0]!.listing($0) })
        }),
    ]
}

extension String {
    /// The text without `suffix` at its end, when it ends so.
    func replacingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
