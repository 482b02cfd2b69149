import Playback
/// The option table behind `ProgramOptions.parse(_:)` and `helpText`, and its value parsers.
///
/// Each option is one row: name, value placeholder, help group, one-line help, and the
/// closure that checks and stores its value. Parsing and help both read the same rows,
/// so an option cannot exist without being documented, or the other way round.
extension ProgramOptions {
    struct OptionSpec: Sendable {
        let name: String
        /// Nil for flags; otherwise the placeholder shown in help (`N`, `FILE`).
        let valueName: String?
        let group: String
        let help: String
        /// Untyped `throws` only because closures in the table cannot infer a typed throw;
        /// every value parser throws `OptionError`, and `run` narrows it back.
        let apply: @Sendable (inout ProgramOptions, String) throws -> Void

        func run(_ options: inout ProgramOptions, _ value: String) throws(OptionError) {
            do {
                try apply(&options, value)
            } catch let error as OptionError {
                throw error
            } catch {
                throw OptionError("\(name): \(error)")
            }
        }
    }

    private static func flag(_ name: String, _ group: String, _ help: String,
                             _ set: @escaping @Sendable (inout ProgramOptions) -> Void) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, group: group, help: help) { options, _ in set(&options) }
    }

    private static func value(_ name: String, _ valueName: String, _ group: String, _ help: String,
                              _ apply: @escaping @Sendable (inout ProgramOptions, String) throws -> Void)
        -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, group: group, help: help, apply: apply)
    }

    static let groupOrder = ["Information", "Scripts and benchmarks", "Folders", "Window", "Playback and queue",
                             "Minimizing", "Overlays and look", "Cache, network and limits", "Desktop"]

    static let optionTable: [OptionSpec] = [
        flag("--help", "Information", "show this help and exit (also -h)") { $0.showHelp = true },
        flag("--version", "Information", "print the version and exit") { $0.showVersion = true },
        flag("--list-bindings", "Information", "print the active key bindings and exit") { $0.listBindings = true },
        flag("--man-page", "Information", "print the manual page (roff, as installed as mediaview.1) and exit") {
            $0.showManual = true },
        value("--input-conf", "FILE", "Information",
              "key bindings laid over the defaults (default $XDG_CONFIG_HOME/mediaview/input.conf)") {
            $0.inputConfPath = try nonEmpty("--input-conf", $1) },

        flag("--autoexit", "Scripts and benchmarks", "quit when the queue is done") { $0.autoExit = true },
        value("--image-duration", "SECONDS", "Scripts and benchmarks",
              "how long a still stays with --autoexit (default 5)") {
            $0.imageDuration = try positiveNumber("--image-duration", $1, unit: "a number of seconds") },
        value("--frames", "N", "Scripts and benchmarks", "quit after N frames were shown") {
            $0.frameLimit = try integer("--frames", $1, in: 1...Int.max) },
        flag("--no-audio", "Scripts and benchmarks", "play no sound") { $0.audioEnabled = false },
        flag("--benchmark", "Scripts and benchmarks",
             "decode and show as fast as possible, no audio; print frames=N seconds=S fps=F dropped=D") {
            $0.benchmark = true },
        value("--events", "FILE", "Scripts and benchmarks", "log events as JSON lines to FILE (- for stdout)") {
            $0.eventsPath = try nonEmpty("--events", $1) },

        flag("--recursive", "Folders", "also queue the media of subfolders (also -r)") { $0.browse.recursive = true },
        value("--sort", "ORDER", "Folders",
              "order of a folder's files: name, natural (img2 before img10), mtime, size, random or exif-date "
                + "(default natural)") {
            $0.browse.order = try choice("--sort", $1) },
        flag("--reverse", "Folders", "list folders last first") { $0.browse.reversed = true },
        flag("--browse-folder", "Folders",
             "a single file opens with the rest of its folder queued around it (what the desktop file passes)") {
            $0.browse.browseFolder = true },

        flag("--windowed", "Window", "open a normal window instead of fullscreen") { $0.windowed = true },
        flag("--fullscreen", "Window", "present fullscreen (the default)") { $0.windowed = false },
        flag("--minimize-on-blur", "Window",
             "a playing video becomes the corner thumbnail when another window takes the focus") { $0.minimizeOnBlur = true },
        value("--geometry", "WxH[+X+Y]", "Window", "window size and position, e.g. 800x600+10+10") {
            $0.geometry = try geometry($1) },
        value("--wid", "ID", "Window", "embed into this X11 window (decimal or 0x hex)") {
            $0.parentWindow = try windowID($1) },

        flag("--loop", "Playback and queue", "replay each item when it ends") { $0.loop = true },
        flag("--no-autoplay", "Playback and queue", "wait for a click or key before playing") { $0.autoplay = false },
        flag("--dismiss-after-finish", "Playback and queue", "move on when an item ends (wins over --loop)") {
            $0.dismissAfterFinish = true },
        value("--volume", "0-100", "Playback and queue", "start volume in percent (default 100)") {
            $0.volume = try integer("--volume", $1, in: 0...100) },
        flag("--mute", "Playback and queue", "start muted") { $0.muted = true },
        value("--speed", "X", "Playback and queue",
              "play at X times the media's own pace, 0.25 to 4; the sound keeps its pitch (default 1)") {
            $0.speed = try speed($1) },
        value("--sub-file", "FILE", "Playback and queue",
              "subtitles (.srt, .ass, .ssa, .vtt) for the videos, as the first track; may be given more than once") {
            $0.subtitleFiles.append(try nonEmpty("--sub-file", $1)) },
        flag("--no-sub-auto", "Playback and queue", "do not look for subtitle files beside a video (film.srt, film.en.srt)") {
            $0.subtitleAuto = false },
        flag("--no-sub-visibility", "Playback and queue", "start with the subtitles hidden (v shows them)") {
            $0.subtitlesVisible = false },
        value("--content-mode", "MODE", "Playback and queue", "fit (whole picture, black bars) or fill (cropped) (default fit)") {
            $0.contentMode = try choice("--content-mode", $1) },
        flag("--video-aspect-fit", "Playback and queue", "fit video even when --content-mode is fill") {
            $0.videoAspectFit = true },

        value("--swipe-mode", "MODE", "Minimizing", "what a drag down does: none, minimize or dismiss (default minimize)") {
            $0.swipeMode = try choice("--swipe-mode", $1) },
        value("--minimized-aspect", "RATIO", "Minimizing",
              "thumbnail height/width: landscape (9/16), square (1), portrait (16/9) or a number, "
                + "kept within [9/16, 16/9] (default landscape)") {
            $0.minimizedAspectRatio = try aspect($1) },
        flag("--minimized-reset", "Minimizing", "forget where the thumbnail was moved and how large it was made") {
            $0.minimizedReset = true },
        flag("--no-minimized-sticky", "Minimizing", "show the thumbnail on its own workspace only, not on every one") {
            $0.minimizedSticky = false },
        value("--minimized-width-ratio", "R", "Minimizing", "thumbnail width as a fraction of the monitor's, above 0 and at most 1 (default 1/3)") {
            $0.minimizedWidthRatio = try fraction("--minimized-width-ratio", $1) },
        value("--top-buffer", "PX", "Minimizing", "room for a top panel: pixels, panel (32) or taskbar (48) (default 0)") {
            $0.topBuffer = try buffer("--top-buffer", $1) },
        value("--bottom-buffer", "PX", "Minimizing",
              "room under the thumbnail: pixels, panel (32) or taskbar (48) (default 0)") {
            $0.bottomBuffer = try buffer("--bottom-buffer", $1) },

        value("--theme-color", "COLOR", "Overlays and look", "track and indicator colour: #rgb, #rrggbb or a name like orange") {
            $0.themeColor = try color($1) },
        flag("--show-track", "Overlays and look", "show the progress track (the default)") { $0.showTrack = true },
        flag("--no-track", "Overlays and look", "hide the progress track") { $0.showTrack = false },
        flag("--remaining-time", "Overlays and look", "show time left instead of the duration") { $0.remainingTime = true },
        value("--track-font", "FAMILY", "Overlays and look", "font of the track's time labels (default sans-serif)") {
            $0.trackFont = try nonEmpty("--track-font", $1) },
        value("--ui-scale", "X", "Overlays and look",
              "size of the track, labels, buttons and messages: 1, 1.5, 2 or auto (default auto: the desktop's Xft.dpi)") {
            $0.uiScalePercent = try uiScale($1) },
        flag("--no-track-previews", "Overlays and look", "hovering a video's track shows only the time, no picture") {
            $0.trackPreviews = false },
        value("--title", "TEXT", "Overlays and look", "title shown at the top") { $0.title = $1 },
        value("--details", "TEXT", "Overlays and look", "details line shown under the title") { $0.details = $1 },
        flag("--hide-close-button", "Overlays and look", "no close button (only with a swipe mode)") { $0.hideCloseButton = true },
        flag("--hide-play-button", "Overlays and look", "no play indicator") { $0.hidePlayButton = true },
        value("--play-icon", "FILE", "Overlays and look", "image to use as the play indicator") {
            $0.playIconPath = try nonEmpty("--play-icon", $1) },
        value("--fail-icon", "FILE", "Overlays and look", "image to use as the fail indicator") {
            $0.failIconPath = try nonEmpty("--fail-icon", $1) },
        value("--music-icon", "FILE", "Overlays and look", "image shown for audio without artwork") {
            $0.musicIconPath = try nonEmpty("--music-icon", $1) },

        value("--cache-dir", "DIR", "Cache, network and limits", "media cache (default $XDG_CACHE_HOME/mediaview)") {
            $0.cacheDirectory = try nonEmpty("--cache-dir", $1) },
        flag("--no-cache", "Cache, network and limits", "neither read nor write the cache") { $0.cacheEnabled = false },
        flag("--preload", "Cache, network and limits", "download queued video and audio ahead") { $0.preload = true },
        value("--max-pixels", "N", "Cache, network and limits", "refuse larger images (default 100000000)") {
            $0.maxPixels = try integer("--max-pixels", $1, in: 1...Int.max) },
        value("--timeout", "SECONDS", "Cache, network and limits", "network timeout (default 15)") {
            $0.timeout = try positiveNumber("--timeout", $1, unit: "a number of seconds") },

        value("--input-ipc-server", "PATH", "Desktop",
              "serve mpv's JSON IPC on this Unix socket (default $XDG_RUNTIME_DIR/mediaview.socket; '' for none)") {
            $0.desktop.ipcServerPath = $1 },
        flag("--enqueue", "Desktop",
             "hand the files to the mediaview running on the IPC socket and exit; start as usual if none runs") {
            $0.desktop.enqueue = true },
        flag("--no-resume", "Desktop",
             "start video and audio longer than 2 minutes from the beginning, not where they were left "
                + "(positions are kept in $XDG_STATE_HOME/mediaview/resume)") {
            $0.desktop.resume = false },
    ]
}

// Value parsers: each checks one kind of value and says what was wanted and what came.
extension ProgramOptions {
    /// `--ui-scale`: 1, 1.5 or 2 (an `x` after it is fine), or auto; nil for auto.
    static func uiScale(_ text: String) throws(OptionError) -> Int? {
        let t = text.lowercased().hasSuffix("x") ? String(text.lowercased().dropLast()) : text.lowercased()
        switch t {
        case "auto": return nil
        case "1", "1.0": return 100
        case "1.5": return 150
        case "2", "2.0": return 200
        default: throw OptionError("--ui-scale must be 1, 1.5, 2 or auto, got '\(text)'")
        }
    }

    static func nonEmpty(_ option: String, _ text: String) throws(OptionError) -> String {
        guard !text.isEmpty else { throw OptionError("\(option) needs a value, got ''") }
        return text
    }

    static func integer(_ option: String, _ text: String, in range: ClosedRange<Int>) throws(OptionError) -> Int {
        guard let value = Int(text) else {
            throw OptionError("\(option) needs a whole number, got '\(text)'")
        }
        guard range.contains(value) else {
            let wanted = range.upperBound == Int.max ? "at least \(range.lowerBound)"
                                                     : "from \(range.lowerBound) to \(range.upperBound)"
            throw OptionError("\(option) must be \(wanted), got '\(text)'")
        }
        return value
    }

    /// A finite number or a fraction `a/b`.
    static func number(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        switch parts.count {
        case 1: value = Double(text)
        case 2:
            guard let top = Double(parts[0]), let bottom = Double(parts[1]), bottom != 0 else { return nil }
            value = top / bottom
        default: value = nil
        }
        guard let value, value.isFinite else { return nil }
        return value
    }

    /// Above 0 and at most `limit` (a day of seconds by default): a larger number is a typo,
    /// and it would overflow the integer clocks the player converts it to.
    static func positiveNumber(_ option: String, _ text: String, unit: String,
                               limit: Double = 86_400) throws(OptionError) -> Double {
        guard let value = number(text), value > 0, value <= limit else {
            throw OptionError("\(option) needs \(unit) greater than 0 and at most \(Int(limit)), got '\(text)'")
        }
        return value
    }

    static func speed(_ text: String) throws(OptionError) -> Double {
        guard let value = number(text), let speed = PlaybackSpeed(value) else {
            throw OptionError("--speed needs a speed from 0.25 to 4 (1 is normal), got '\(text)'")
        }
        return speed.factor
    }

    static func fraction(_ option: String, _ text: String) throws(OptionError) -> Double {
        guard let value = number(text), value > 0, value <= 1 else {
            throw OptionError("\(option) needs a number above 0 and at most 1, got '\(text)'")
        }
        return value
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ option: String, _ text: String) throws(OptionError) -> T
        where T.RawValue == String {
        guard let value = T(rawValue: text.lowercased()) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw OptionError("\(option) must be one of \(names), got '\(text)'")
        }
        return value
    }

    static func geometry(_ text: String) throws(OptionError) -> Geometry {
        let bad = OptionError("--geometry needs WxH or WxH+X+Y with sizes of at least 1, got '\(text)'")
        let sizeEnd = text.firstIndex(where: { $0 == "+" || $0 == "-" }) ?? text.endIndex
        let size = text[..<sizeEnd].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        // X11 sizes are 16-bit; anything bigger is a typo, not a monitor.
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]),
              (1...32767).contains(width), (1...32767).contains(height) else { throw bad }
        var geometry = Geometry(width: width, height: height)
        let position = text[sizeEnd...]
        if position.isEmpty { return geometry }
        // Split "+10-20" into "+10", "-20", keeping each sign with its number.
        var offsets: [Int] = []
        var rest = Substring(position)
        while let sign = rest.first, sign == "+" || sign == "-" {
            let body = rest.dropFirst()
            let end = body.firstIndex(where: { $0 == "+" || $0 == "-" }) ?? body.endIndex
            guard let value = Int(body[..<end]), body[..<end].allSatisfy(\.isNumber) else { throw bad }
            offsets.append(sign == "-" ? -value : value)
            rest = body[end...]
        }
        guard rest.isEmpty, offsets.count == 2 else { throw bad }
        (geometry.x, geometry.y) = (offsets[0], offsets[1])
        return geometry
    }

    static func windowID(_ text: String) throws(OptionError) -> UInt32 {
        let lower = text.lowercased()
        let parsed = lower.hasPrefix("0x") ? UInt32(lower.dropFirst(2), radix: 16) : UInt32(lower, radix: 10)
        guard let id = parsed, id != 0 else {
            throw OptionError("--wid needs an X11 window id (decimal or 0x hex, not 0), got '\(text)'")
        }
        return id
    }

    static func aspect(_ text: String) throws(OptionError) -> Double {
        let presets: [String: Double] = ["landscape": 9.0 / 16.0, "square": 1, "portrait": 16.0 / 9.0]
        if let preset = presets[text.lowercased()] { return preset }
        guard let value = number(text), value > 0 else {
            throw OptionError("--minimized-aspect needs landscape, square, portrait or a height/width above 0, got '\(text)'")
        }
        return min(max(value, 9.0 / 16.0), 16.0 / 9.0)
    }

    static func buffer(_ option: String, _ text: String) throws(OptionError) -> Int {
        switch text.lowercased() {
        case "panel": return 32
        case "taskbar": return 48
        case "none": return 0
        default:
            guard let value = Int(text), value >= 0, value <= 32767 else {
                throw OptionError("\(option) needs pixels (0 or more) or panel/taskbar, got '\(text)'")
            }
            return value
        }
    }

    static func color(_ text: String) throws(OptionError) -> RGBColor {
        let bad = OptionError("--theme-color needs #rgb, #rrggbb or a colour name (e.g. red, orange), got '\(text)'")
        let lower = text.lowercased()
        if let named = namedColors[lower] { return named }
        guard lower.hasPrefix("#") else { throw bad }
        let hex = lower.dropFirst()
        guard hex.allSatisfy(\.isHexDigit), hex.allSatisfy(\.isASCII) else { throw bad }
        let digits = hex.compactMap { UInt8(String($0), radix: 16) }
        switch digits.count {
        case 3: return RGBColor(red: digits[0] * 17, green: digits[1] * 17, blue: digits[2] * 17)
        case 6: return RGBColor(red: digits[0] << 4 | digits[1], green: digits[2] << 4 | digits[3],
                                blue: digits[4] << 4 | digits[5])
        default: throw bad
        }
    }

    /// CSS's values for these names (so `green` is #008000, not #00ff00).
    static let namedColors: [String: RGBColor] = [
        "red": RGBColor(red: 255, green: 0, blue: 0), "green": RGBColor(red: 0, green: 128, blue: 0),
        "blue": RGBColor(red: 0, green: 0, blue: 255), "white": RGBColor(red: 255, green: 255, blue: 255),
        "black": RGBColor(red: 0, green: 0, blue: 0), "yellow": RGBColor(red: 255, green: 255, blue: 0),
        "orange": RGBColor(red: 255, green: 165, blue: 0), "purple": RGBColor(red: 128, green: 0, blue: 128),
        "cyan": RGBColor(red: 0, green: 255, blue: 255), "magenta": RGBColor(red: 255, green: 0, blue: 255),
        "gray": RGBColor(red: 128, green: 128, blue: 128), "grey": RGBColor(red: 128, green: 128, blue: 128),
        "pink": RGBColor(red: 255, green: 192, blue: 203),
    ]
}
