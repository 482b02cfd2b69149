/// Reading command text: each command name has its own small parser, found in one table,
/// so a new command is one entry and one function, not another branch of a long switch.
extension PlayerCommand {
    /// Reads the arguments of one command (its name given too, for messages).
    typealias ArgumentParser = @Sendable (_ name: String, _ args: [String]) throws(ParseError) -> PlayerCommand

    /// Parses command text such as `seek -5` or `add volume 2`.
    ///
    /// mpv's OSD prefixes (`no-osd`, `osd-msg`, ...) are accepted and ignored, so lines
    /// copied from an mpv input.conf keep working where the command exists here.
    public static func parse(_ text: String) throws(ParseError) -> PlayerCommand {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        while let first = words.first, osdPrefixes.contains(first) { words.removeFirst() }
        guard let name = words.first else { throw ParseError(description: "missing command") }
        let args = Array(words.dropFirst())
        if let parser = parsers[name] { return try parser(name, args) }
        guard let command = plainCommands[name] else {
            throw ParseError(description: "unknown command '\(name)'")
        }
        try expectCount(args, 0, usage: name)
        return command
    }

    /// The commands that take arguments, by name.
    private static let parsers: [String: ArgumentParser] = [
        "cycle": { _, args throws(ParseError) in try parseCycle(args) },
        "seek": { _, args throws(ParseError) in try parseSeek(args) },
        "add": { _, args throws(ParseError) in try parseAdd(args) },
        "multiply": { name, args throws(ParseError) in .speed(try speedChange(name, args)) },
        "set": { name, args throws(ParseError) in .speed(try speedChange(name, args)) },
        "rotate": { _, args throws(ParseError) in try parseRotate(args) },
        "zoom": { _, args throws(ParseError) in
            try expectCount(args, 1, usage: "zoom STEP")
            return .zoom(delta: try number(args[0], for: "zoom"))
        },
        "pan": { _, args throws(ParseError) in
            try expectCount(args, 2, usage: "pan DX DY")
            return .pan(dx: try integer(args[0], for: "pan"), dy: try integer(args[1], for: "pan"))
        },
        "gallery-move": { _, args throws(ParseError) in try parseGalleryMove(args) },
        "gallery-page": { name, args throws(ParseError) in .galleryPage(try galleryStep(name, args)) },
        "gallery-scroll": { name, args throws(ParseError) in .galleryScroll(rows: try galleryStep(name, args)) },
    ]

    /// The commands without arguments, by name.
    private static let plainCommands: [String: PlayerCommand] = [
        "playlist-next": .next, "playlist-prev": .previous, "dismiss": .dismiss,
        "playlist-first": .first, "playlist-last": .last, "trash": .trash, "undo-trash": .undoTrash,
        "zoom-reset": .zoomReset, "minimize": .minimize, "restore": .restore, "pin": .pin, "quit": .quit,
        "screenshot": .screenshot, "paste": .paste, "copy": .copy, "gallery": .toggleGallery,
        "gallery-first": .galleryFirst, "gallery-last": .galleryLast, "gallery-open": .galleryOpen,
        "frame-step": .frameStep(forward: true), "frame-back-step": .frameStep(forward: false),
    ]

    /// What `cycle` toggles, with mpv's names and the property names its scripts cycle
    /// (sid, aid).
    private static let cycledProperties: [String: PlayerCommand] = [
        "pause": .togglePause, "mute": .toggleMute, "fullscreen": .toggleFullscreen,
        "loop": .toggleLoop, "loop-file": .toggleLoop, "track": .toggleTrack, "details": .toggleDetails,
        "info": .toggleInfo, "sub-visibility": .toggleSubtitles, "sub": .cycleSubtitles, "sid": .cycleSubtitles,
        "audio": .cycleAudio, "aid": .cycleAudio, "fit": .toggleFit,
    ]

    private static let osdPrefixes: Set<String> = ["no-osd", "osd-auto", "osd-bar", "osd-msg", "osd-msg-bar"]

    /// mpv's precision flags mean nothing for a player that always seeks exactly.
    private static let seekFlags: Set<String> = ["relative", "absolute", "absolute-percent", "exact", "keyframes"]

    private static func parseCycle(_ args: [String]) throws(ParseError) -> PlayerCommand {
        guard let property = args.first else {
            throw ParseError(description: "cycle needs a property (pause, mute, fullscreen, loop, track, details, info, sub, sub-visibility, audio)")
        }
        try expectCount(args, 1, usage: "cycle \(property)")
        guard let command = cycledProperties[property] else { throw ParseError(description: "cannot cycle '\(property)'") }
        return command
    }

    private static func parseSeek(_ args: [String]) throws(ParseError) -> PlayerCommand {
        guard args.count == 1 || args.count == 2 else {
            throw ParseError(description: "usage: seek SECONDS [relative|absolute|absolute-percent]")
        }
        let amount = try number(args[0], for: "seek")
        let flags = args.count == 2 ? args[1].split(separator: "+").map(String.init) : []
        if let unknown = flags.first(where: { !seekFlags.contains($0) }) {
            throw ParseError(description: "unknown seek mode '\(unknown)'")
        }
        if flags.contains("absolute-percent") {
            guard (0...100).contains(amount) else {
                throw ParseError(description: "seek percentage must be 0-100, got '\(args[0])'")
            }
            return .seekAbsolutePercent(amount)
        }
        if flags.contains("absolute") {
            guard amount >= 0 else {
                throw ParseError(description: "an absolute seek needs 0 or more seconds, got '\(args[0])'")
            }
            return .seekAbsolute(seconds: amount)
        }
        return .seek(seconds: amount)
    }

    private static func parseAdd(_ args: [String]) throws(ParseError) -> PlayerCommand {
        switch args.first {
        case "volume":
            try expectCount(args, 2, usage: "add volume STEP")
            return .volume(delta: try integer(args[1], for: "add volume"))
        case "speed":
            try expectCount(args, 2, usage: "add speed STEP")
            return .speed(.add(try number(args[1], for: "add speed")))
        case "chapter":
            try expectCount(args, 2, usage: "add chapter STEP")
            let step = try integer(args[1], for: "add chapter")
            guard step != 0, abs(step) <= 1000 else {
                throw ParseError(description: "add chapter needs a step between -1000 and 1000 other than 0, got '\(args[1])'")
            }
            return .chapter(delta: step)
        default:
            throw ParseError(description: "cannot add to '\(args.first ?? "")' (only volume, chapter and speed)")
        }
    }

    private static func parseRotate(_ args: [String]) throws(ParseError) -> PlayerCommand {
        try expectCount(args, 1, usage: "rotate DEGREES")
        let degrees = try integer(args[0], for: "rotate")
        guard degrees != 0, degrees % 90 == 0, abs(degrees) <= 270 else {
            throw ParseError(description: "rotate needs 90, -90, 180 or 270 degrees, got '\(args[0])'")
        }
        return .rotate(degrees: degrees)
    }

    private static func parseGalleryMove(_ args: [String]) throws(ParseError) -> PlayerCommand {
        try expectCount(args, 2, usage: "gallery-move COLUMNS ROWS")
        let (dx, dy) = (try integer(args[0], for: "gallery-move"), try integer(args[1], for: "gallery-move"))
        guard abs(dx) <= 1000, abs(dy) <= 1000 else {
            throw ParseError(description: "gallery-move needs steps between -1000 and 1000")
        }
        return .galleryMove(columns: dx, rows: dy)
    }

    /// The step of `gallery-page` and `gallery-scroll`.
    private static func galleryStep(_ name: String, _ args: [String]) throws(ParseError) -> Int {
        try expectCount(args, 1, usage: "\(name) STEP")
        let step = try integer(args[0], for: name)
        guard step != 0, abs(step) <= 1000 else {
            throw ParseError(description: "\(name) needs a step between -1000 and 1000 other than 0, got '\(args[0])'")
        }
        return step
    }

    static func expectCount(_ args: [String], _ count: Int, usage: String) throws(ParseError) {
        guard args.count == count else {
            throw ParseError(description: args.count > count
                ? "too many arguments: '\(args.joined(separator: " "))' (usage: \(usage))"
                : "missing argument (usage: \(usage))")
        }
    }

    static func number(_ text: String, for command: String) throws(ParseError) -> Double {
        // Double("inf") and Double("nan") parse; a binding that seeks by infinity is a typo.
        guard let value = Double(text), value.isFinite else {
            throw ParseError(description: "\(command) needs a number, got '\(text)'")
        }
        return value
    }

    private static func integer(_ text: String, for command: String) throws(ParseError) -> Int {
        guard let value = Int(text) else {
            throw ParseError(description: "\(command) needs a whole number, got '\(text)'")
        }
        return value
    }
}
