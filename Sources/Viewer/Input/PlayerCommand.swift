/// Something a key or button binding asks the player to do.
///
/// Commands are written as mpv-like text in input.conf (`cycle pause`, `seek -60`,
/// `add volume 2`) and parsed with `parse(_:)`; `description` writes them back in the
/// same canonical form, so `--list-bindings` output is itself a valid input.conf.
/// `ignore`, which unbinds a key, is not a command: the binding table handles it.
public enum PlayerCommand: Equatable, Sendable, CustomStringConvertible {
    /// Play when paused, pause when playing.
    case togglePause
    /// Relative seek; negative goes back.
    case seek(seconds: Double)
    /// Seek to a percentage (0-100) of the duration.
    case seekAbsolutePercent(Double)
    /// Seek to this many seconds from the start.
    case seekAbsolute(seconds: Double)
    /// Change the volume by this many percentage points.
    case volume(delta: Int)
    /// Jump this many chapters forward (negative: back).
    case chapter(delta: Int)
    /// Mute or unmute.
    case toggleMute
    /// Present the next item.
    case next
    /// Go back to the item before.
    case previous
    /// Go to the first item of the queue.
    case first
    /// Go to the last item of the queue.
    case last
    /// Move the current file to the trash.
    case trash
    /// Bring back the file trashed last.
    case undoTrash
    /// Show or hide the panel that says what the file is.
    case toggleInfo
    /// Dismiss the current item, as the close button does.
    case dismiss
    /// Fullscreen or windowed.
    case toggleFullscreen
    /// Loop or not.
    case toggleLoop
    /// Rotate the media clockwise by a multiple of 90 degrees (negative: anticlockwise).
    case rotate(degrees: Int)
    /// Show or hide the progress track.
    case toggleTrack
    /// Show or hide the title and details.
    case toggleDetails
    /// Change the zoom factor by this much (0.1 is ten percent of the fitted size).
    case zoom(delta: Double)
    /// Back to fit-to-window with no pan.
    case zoomReset
    /// Move a zoomed image by this many pixels.
    case pan(dx: Int, dy: Int)
    /// Shrink into the corner thumbnail.
    case minimize
    /// Back from the thumbnail to fullscreen.
    case restore
    /// Keep the current item playing in a thumbnail of its own and move on.
    case pin
    /// End the program (the queue's loop).
    case quit
    /// Play the paths or links on the clipboard.
    case paste
    /// Put the picture on screen (full size, PNG) and its source on the clipboard.
    case copy
    /// Save the picture on screen, at the media's resolution, as a PNG file.
    case screenshot
    /// Show the queue as a grid of thumbnails, or leave it for the item that was showing.
    case toggleGallery
    /// In the gallery: move the highlight this many cells across and rows down.
    case galleryMove(columns: Int, rows: Int)
    /// In the gallery: move the highlight this many screens down (negative: up).
    case galleryPage(Int)
    /// In the gallery: scroll this many rows down (negative: up), the highlight staying.
    case galleryScroll(rows: Int)
    /// In the gallery: highlight the first item.
    case galleryFirst
    /// In the gallery: highlight the last item.
    case galleryLast
    /// In the gallery: leave it and present the highlighted item.
    case galleryOpen
    /// Play faster or slower (the sound keeps its pitch).
    case speed(SpeedChange)
    /// Pause and show the next frame (`forward`) or the one before.
    case frameStep(forward: Bool)
    /// Show or hide the subtitles.
    case toggleSubtitles
    /// Choose the next subtitle track, then none.
    case cycleSubtitles
    /// Choose the next sound track.
    case cycleAudio

    /// Why a command's text could not be parsed; the message fits after `file:line: `.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What is wrong, to follow `file:line: `.
        public let description: String
    }

    /// Parses command text such as `seek -5` or `add volume 2`.
    ///
    /// mpv's OSD prefixes (`no-osd`, `osd-msg`, ...) are accepted and ignored, so lines
    /// copied from an mpv input.conf keep working where the command exists here.
    public static func parse(_ text: String) throws(ParseError) -> PlayerCommand {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        while let first = words.first, osdPrefixes.contains(first) { words.removeFirst() }
        guard let name = words.first else { throw ParseError(description: "missing command") }
        let args = Array(words.dropFirst())

        switch name {
        case "cycle":
            guard let property = args.first else {
                throw ParseError(description: "cycle needs a property (pause, mute, fullscreen, loop, track, details, info, sub, sub-visibility, audio)")
            }
            try expectCount(args, 1, usage: "cycle \(property)")
            switch property {
            case "pause": return .togglePause
            case "mute": return .toggleMute
            case "fullscreen": return .toggleFullscreen
            case "loop", "loop-file": return .toggleLoop
            case "track": return .toggleTrack
            case "details": return .toggleDetails
            case "info": return .toggleInfo
            // mpv's names, and the property names its scripts cycle (sid, aid).
            case "sub-visibility": return .toggleSubtitles
            case "sub", "sid": return .cycleSubtitles
            case "audio", "aid": return .cycleAudio
            default: throw ParseError(description: "cannot cycle '\(property)'")
            }
        case "seek":
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
        case "add":
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
        case "multiply", "set":
            return .speed(try speedChange(name, args))
        case "rotate":
            try expectCount(args, 1, usage: "rotate DEGREES")
            let degrees = try integer(args[0], for: "rotate")
            guard degrees != 0, degrees % 90 == 0, abs(degrees) <= 270 else {
                throw ParseError(description: "rotate needs 90, -90, 180 or 270 degrees, got '\(args[0])'")
            }
            return .rotate(degrees: degrees)
        case "zoom":
            try expectCount(args, 1, usage: "zoom STEP")
            return .zoom(delta: try number(args[0], for: "zoom"))
        case "gallery-move":
            try expectCount(args, 2, usage: "gallery-move COLUMNS ROWS")
            let (dx, dy) = (try integer(args[0], for: "gallery-move"), try integer(args[1], for: "gallery-move"))
            guard abs(dx) <= 1000, abs(dy) <= 1000 else {
                throw ParseError(description: "gallery-move needs steps between -1000 and 1000")
            }
            return .galleryMove(columns: dx, rows: dy)
        case "gallery-page", "gallery-scroll":
            try expectCount(args, 1, usage: "\(name) STEP")
            let step = try integer(args[0], for: name)
            guard step != 0, abs(step) <= 1000 else {
                throw ParseError(description: "\(name) needs a step between -1000 and 1000 other than 0, got '\(args[0])'")
            }
            return name == "gallery-page" ? .galleryPage(step) : .galleryScroll(rows: step)
        case "pan":
            try expectCount(args, 2, usage: "pan DX DY")
            return .pan(dx: try integer(args[0], for: "pan"), dy: try integer(args[1], for: "pan"))
        default:
            guard let command = plainCommands[name] else {
                throw ParseError(description: "unknown command '\(name)'")
            }
            try expectCount(args, 0, usage: name)
            return command
        }
    }

    /// The canonical command text, which `parse(_:)` reads back to the same value.
    public var description: String {
        switch self {
        case .togglePause: "cycle pause"
        case .seek(let seconds): "seek \(Self.format(seconds))"
        case .seekAbsolutePercent(let percent): "seek \(Self.format(percent)) absolute-percent"
        case .seekAbsolute(let seconds): "seek \(Self.format(seconds)) absolute"
        case .volume(let delta): "add volume \(delta)"
        case .chapter(let delta): "add chapter \(delta)"
        case .toggleMute: "cycle mute"
        case .next: "playlist-next"
        case .previous: "playlist-prev"
        case .first: "playlist-first"
        case .last: "playlist-last"
        case .trash: "trash"
        case .undoTrash: "undo-trash"
        case .toggleInfo: "cycle info"
        case .dismiss: "dismiss"
        case .toggleFullscreen: "cycle fullscreen"
        case .toggleLoop: "cycle loop"
        case .rotate(let degrees): "rotate \(degrees)"
        case .toggleTrack: "cycle track"
        case .toggleDetails: "cycle details"
        case .zoom(let delta): "zoom \(Self.format(delta))"
        case .zoomReset: "zoom-reset"
        case .pan(let dx, let dy): "pan \(dx) \(dy)"
        case .minimize: "minimize"
        case .restore: "restore"
        case .pin: "pin"
        case .quit: "quit"
        case .paste: "paste"
        case .copy: "copy"
        case .screenshot: "screenshot"
        case .toggleGallery: "gallery"
        case .galleryMove(let dx, let dy): "gallery-move \(dx) \(dy)"
        case .galleryPage(let n): "gallery-page \(n)"
        case .galleryScroll(let n): "gallery-scroll \(n)"
        case .galleryFirst: "gallery-first"
        case .galleryLast: "gallery-last"
        case .galleryOpen: "gallery-open"
        case .speed(let change): change.commandText
        case .frameStep(let forward): forward ? "frame-step" : "frame-back-step"
        case .toggleSubtitles: "cycle sub-visibility"
        case .cycleSubtitles: "cycle sub"
        case .cycleAudio: "cycle audio"
        }
    }

    private static let plainCommands: [String: PlayerCommand] = [
        "playlist-next": .next, "playlist-prev": .previous, "dismiss": .dismiss,
        "playlist-first": .first, "playlist-last": .last, "trash": .trash, "undo-trash": .undoTrash,
        "zoom-reset": .zoomReset, "minimize": .minimize, "restore": .restore, "pin": .pin, "quit": .quit,
        "screenshot": .screenshot, "paste": .paste, "copy": .copy, "gallery": .toggleGallery,
        "gallery-first": .galleryFirst, "gallery-last": .galleryLast, "gallery-open": .galleryOpen,
        "frame-step": .frameStep(forward: true), "frame-back-step": .frameStep(forward: false),
    ]

    private static let osdPrefixes: Set<String> = ["no-osd", "osd-auto", "osd-bar", "osd-msg", "osd-msg-bar"]

    /// mpv's precision flags mean nothing for a player that always seeks exactly.
    private static let seekFlags: Set<String> = ["relative", "absolute", "absolute-percent", "exact", "keyframes"]

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

    /// Whole numbers print without ".0" so listings read like hand-written input.conf.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
