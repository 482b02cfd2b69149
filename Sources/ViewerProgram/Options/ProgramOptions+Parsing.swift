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
        /// A flag that may be written `--name=VALUE` (mpv's `--idle=once`); the value, or
        /// "" without one, goes to `apply`.
        var takesInlineValue = false

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
        flag("--help", "Information", "show this help and exit (also -h)") { $0.information.showHelp = true },
        flag("--version", "Information", "print the version and exit") { $0.information.showVersion = true },
        flag("--list-bindings", "Information", "print the active key bindings and exit") { $0.information.listBindings = true },
        flag("--man-page", "Information", "print the manual page (roff, as installed as mediaview.1) and exit") {
            $0.information.showManual = true },
        value("--input-conf", "FILE", "Information",
              "key bindings laid over the defaults (default $XDG_CONFIG_HOME/mediaview/input.conf)") {
            $0.information.inputConfPath = try nonEmpty("--input-conf", $1) },

        flag("--autoexit", "Scripts and benchmarks", "quit when the queue is done") { $0.scripts.autoexit = true },
        value("--image-duration", "SECONDS", "Scripts and benchmarks",
              "how long a still stays with --autoexit (default 5)") {
            $0.scripts.imageDuration = try positiveNumber("--image-duration", $1, unit: "a number of seconds") },
        value("--frames", "N", "Scripts and benchmarks", "quit after N frames were shown") {
            $0.scripts.frameLimit = try integer("--frames", $1, in: 1...Int.max) },
        flag("--no-audio", "Scripts and benchmarks", "play no sound") { $0.scripts.audioEnabled = false },
        flag("--benchmark", "Scripts and benchmarks",
             "decode and show as fast as possible, no audio; print frames=N seconds=S fps=F dropped=D") {
            $0.scripts.benchmark = true },
        value("--events", "FILE", "Scripts and benchmarks", "log events as JSON lines to FILE (- for stdout)") {
            $0.scripts.eventsPath = try nonEmpty("--events", $1) },

        flag("--recursive", "Folders", "also queue the media of subfolders (also -r)") { $0.folders.recursive = true },
        value("--sort", "ORDER", "Folders",
              "order of a folder's files: name, natural (img2 before img10), mtime, size, random or exif-date "
                + "(default natural)") {
            $0.folders.sort = try choice("--sort", $1) },
        flag("--reverse", "Folders", "list folders last first") { $0.folders.reversed = true },
        flag("--browse-folder", "Folders",
             "a single file opens with the rest of its folder queued around it (what the desktop file passes)") {
            $0.folders.browseFolder = true },

        flag("--windowed", "Window", "open a normal window instead of fullscreen") { $0.window.windowed = true },
        flag("--fullscreen", "Window", "present fullscreen (the default)") { $0.window.windowed = false },
        flag("--minimize-on-blur", "Window",
             "a playing video becomes the corner thumbnail when another window takes the focus") {
            $0.window.minimizeOnBlur = true },
        value("--cursor-autohide", "no|always|with-controls|MS", "Window",
              "when the pointer hides over a playing video or a fullscreen item: never, at once, with the "
                + "controls (the default, 2.5 s), or MS milliseconds after it last moved") {
            $0.window.pointerHiding = try pointerHiding($1) },
        value("--geometry", "WxH[+X+Y]", "Window", "window size and position, e.g. 800x600+10+10") {
            $0.window.geometry = try geometry($1) },
        value("--wid", "ID", "Window", "embed into this X11 window (decimal or 0x hex)") {
            $0.window.parentWindow = try windowID($1) },

        flag("--loop", "Playback and queue", "replay each item when it ends") { $0.playback.loop = true },
        flag("--no-autoplay", "Playback and queue", "wait for a click or key before playing") { $0.playback.autoplay = false },
        flag("--dismiss-after-finish", "Playback and queue", "move on when an item ends (wins over --loop)") {
            $0.playback.dismissAfterFinish = true },
        value("--volume", "0-100", "Playback and queue", "start volume in percent (default 100)") {
            $0.playback.volume = try integer("--volume", $1, in: 0...100) },
        flag("--mute", "Playback and queue", "start muted") { $0.playback.muted = true },
        value("--speed", "X", "Playback and queue",
              "play at X times the media's own pace, 0.25 to 4; the sound keeps its pitch (default 1)") {
            $0.playback.speed = try speed($1) },
        value("--sub-file", "FILE", "Playback and queue",
              "subtitles (.srt, .ass, .ssa, .vtt) for the videos, as the first track; may be given more than once") {
            $0.playback.subtitleFiles.append(try nonEmpty("--sub-file", $1)) },
        flag("--no-sub-auto", "Playback and queue", "do not look for subtitle files beside a video (film.srt, film.en.srt)") {
            $0.playback.subtitleAuto = false },
        flag("--no-sub-visibility", "Playback and queue", "start with the subtitles hidden (v shows them)") {
            $0.playback.subtitlesVisible = false },
        value("--content-mode", "MODE", "Playback and queue", "fit (whole picture, black bars) or fill (cropped) (default fit)") {
            $0.playback.contentMode = try choice("--content-mode", $1) },
        flag("--video-aspect-fit", "Playback and queue", "fit video even when --content-mode is fill") {
            $0.playback.videoAspectFit = true },
        value("--fit", "WHEN", "Playback and queue",
              "enlarge pictures smaller than the window: small (never, show them at 100 %) or always; F switches (default small)") {
            $0.playback.pictureFit = try choice("--fit", $1) },

        value("--swipe-mode", "MODE", "Minimizing", "what a drag down does: none, minimize or dismiss (default minimize)") {
            $0.minimizing.swipeMode = try choice("--swipe-mode", $1) },
        value("--minimized-aspect", "RATIO", "Minimizing",
              "thumbnail height/width: landscape (9/16), square (1), portrait (16/9) or a number, "
                + "kept within [9/16, 16/9] (default landscape)") {
            $0.minimizing.aspectRatio = try aspect($1) },
        flag("--minimized-reset", "Minimizing", "forget where the thumbnail was moved and how large it was made") {
            $0.minimizing.reset = true },
        flag("--no-minimized-sticky", "Minimizing", "show the thumbnail on its own workspace only, not on every one") {
            $0.minimizing.sticky = false },
        value("--minimized-width-ratio", "R", "Minimizing", "thumbnail width as a fraction of the monitor's, above 0 and at most 1 (default 1/3)") {
            $0.minimizing.widthRatio = try fraction("--minimized-width-ratio", $1) },
        value("--top-buffer", "PX", "Minimizing", "room for a top panel: pixels, panel (32) or taskbar (48) (default 0)") {
            $0.minimizing.topBuffer = try buffer("--top-buffer", $1) },
        value("--bottom-buffer", "PX", "Minimizing",
              "room under the thumbnail: pixels, panel (32) or taskbar (48) (default 0)") {
            $0.minimizing.bottomBuffer = try buffer("--bottom-buffer", $1) },

        value("--theme-color", "COLOR", "Overlays and look", "track and indicator colour: #rgb, #rrggbb or a name like orange") {
            $0.look.themeColor = try color($1) },
        flag("--show-track", "Overlays and look", "show the progress track (the default)") { $0.look.showTrack = true },
        flag("--no-track", "Overlays and look", "hide the progress track") { $0.look.showTrack = false },
        flag("--remaining-time", "Overlays and look", "show time left instead of the duration") { $0.look.remainingTime = true },
        value("--track-font", "FAMILY", "Overlays and look", "font of the track's time labels (default sans-serif)") {
            $0.look.trackFont = try nonEmpty("--track-font", $1) },
        value("--ui-scale", "X", "Overlays and look",
              "size of the track, labels, buttons and messages: 1, 1.5, 2 or auto (default auto: the desktop's Xft.dpi)") {
            $0.look.uiScalePercent = try uiScale($1) },
        flag("--no-track-previews", "Overlays and look", "hovering a video's track shows only the time, no picture") {
            $0.look.trackPreviews = false },
        value("--title", "TEXT", "Overlays and look", "title shown at the top") { $0.look.title = $1 },
        value("--details", "TEXT", "Overlays and look", "details line shown under the title") { $0.look.details = $1 },
        flag("--hide-close-button", "Overlays and look", "no close button (only with a swipe mode)") { $0.look.hideCloseButton = true },
        flag("--hide-play-button", "Overlays and look", "no play indicator") { $0.look.hidePlayButton = true },
        value("--play-icon", "FILE", "Overlays and look", "image to use as the play indicator") {
            $0.look.playIconPath = try nonEmpty("--play-icon", $1) },
        value("--fail-icon", "FILE", "Overlays and look", "image to use as the fail indicator") {
            $0.look.failIconPath = try nonEmpty("--fail-icon", $1) },
        value("--music-icon", "FILE", "Overlays and look", "image shown for audio without artwork") {
            $0.look.musicIconPath = try nonEmpty("--music-icon", $1) },

        value("--cache-dir", "DIR", "Cache, network and limits", "media cache (default $XDG_CACHE_HOME/mediaview)") {
            $0.cache.directory = try nonEmpty("--cache-dir", $1) },
        flag("--no-cache", "Cache, network and limits", "neither read nor write the cache") { $0.cache.enabled = false },
        flag("--preload", "Cache, network and limits", "download queued video and audio ahead") { $0.cache.preload = true },
        value("--max-pixels", "N", "Cache, network and limits", "refuse larger images (default 100000000)") {
            $0.cache.maxPixels = try integer("--max-pixels", $1, in: 1...Int.max) },
        value("--sandbox", "auto|strict|off", "Cache, network and limits",
              "decode still pictures, local or from the web, local video's previews and zoom tiles in a sandboxed worker "
                + "(auto: with what the kernel allows; "
                + "strict: refuse without a full sandbox; off: in this process)") {
            $0.cache.sandbox = try choice("--sandbox", $1) },
        value("--timeout", "SECONDS", "Cache, network and limits", "network timeout (default 15)") {
            $0.cache.timeout = try positiveNumber("--timeout", $1, unit: "a number of seconds") },

        value("--input-ipc-server", "PATH", "Desktop",
              "serve mpv's JSON IPC on this Unix socket (default $XDG_RUNTIME_DIR/mediaview.socket; '' for none)") {
            $0.desktop.ipcServerPath = $1 },
        flag("--enqueue", "Desktop",
             "hand the files to the mediaview running on the IPC socket and exit; start as usual if none runs") {
            $0.desktop.enqueue = true },
        OptionSpec(name: "--idle", valueName: nil, group: "Desktop",
                   help: "--idle[=yes|once|no]: with nothing (left) to show, keep the window for files loaded over the socket",
                   apply: { $0.desktop.idle = try idle($1) }, takesInlineValue: true),
        flag("--verbose", "Desktop",
             "say which mpv options given mean nothing here, and which desktop services are absent "
               + "(no session bus: no media keys)") { $0.desktop.verbose = true },
        value("--image-display-duration", "SECONDS", "Desktop", "mpv's name for --image-duration") {
            $0.scripts.imageDuration = try positiveNumber("--image-display-duration", $1, unit: "a number of seconds") },
        flag("--fs", "Desktop", "mpv's name for --fullscreen") { $0.window.windowed = false },
        flag("--pause", "Desktop", "mpv's name for --no-autoplay") { $0.playback.autoplay = false },
        flag("--no-resume", "Desktop",
             "start video and audio longer than 2 minutes from the beginning, not where they were left "
                + "(positions are kept in $XDG_STATE_HOME/mediaview/resume)") {
            $0.desktop.resume = false },
        ignoredSpec("--no-terminal", help: "this and mpv's other options that tune mpv itself (--force-window, "
                    + "--profile=NAME, --no-config, --keep-open, ...): accepted and ignored; --verbose names them"),
    ]

    /// The row of an mpv option that is accepted and ignored.
    static func ignoredSpec(_ name: String, help: String = "mpv's; accepted and ignored") -> OptionSpec {
        OptionSpec(name: name, valueName: nil, group: "Desktop", help: help,
                   apply: { $0.desktop.ignoredOptions.append($1.isEmpty ? name : name + "=" + $1) }, takesInlineValue: true)
    }

    /// Options mpv's own tools and wrappers pass (umpv: `--no-terminal --force-window`)
    /// that tune mpv itself: accepted so those tools start mediaview, and named under
    /// `--verbose`. A value must be joined with `=` (`--profile=fast`).
    static let mpvIgnored = [
        "--no-terminal", "--terminal", "--force-window", "--profile", "--no-config", "--config", "--really-quiet",
        "--quiet", "--msg-level", "--msg-color", "--keep-open", "--keep-open-pause", "--osc", "--no-osc", "--osd-level",
        "--osd-bar", "--no-osd-bar", "--ytdl", "--no-ytdl", "--ytdl-format", "--hwdec", "--vo", "--ao", "--gpu-api",
        "--gpu-context", "--player-operation-mode", "--input-default-bindings", "--no-input-default-bindings",
        "--input-terminal", "--no-input-terminal", "--input-vo-keyboard", "--ontop", "--border",
        "--no-border", "--save-position-on-quit", "--watch-later-directory", "--script", "--scripts", "--load-scripts",
        "--no-load-scripts", "--term-playing-msg", "--log-file", "--cache", "--replaygain", "--audio-display",
        "--snap-window", "--autofit", "--autofit-larger", "--keepaspect", "--load-unsafe-playlists",
    ]

    /// `--idle`'s value: yes (also given alone), once or no.
    static func idle(_ text: String) throws(OptionError) -> Idle {
        guard let i = Idle(rawValue: text.isEmpty ? "yes" : text) else {
            throw OptionError("--idle must be yes, once or no, got '\(text)'")
        }
        return i
    }
}


// Reading the arguments against the table.
extension ProgramOptions {
    /// Parses the arguments after the program name.
    ///
    /// `--opt value` and `--opt=value` both work; `--` ends the options; `-` is an
    /// ordinary input. Later options win over earlier ones, so a wrapper script's
    /// defaults can be overridden by appending.
    public static func parse(_ arguments: [String]) throws(OptionError) -> ProgramOptions {
        var options = ProgramOptions()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                options.inputs.append(argument)
                continue
            }
            switch argument {
            case "--": optionsEnded = true; continue
            case "-h": options.information.showHelp = true; continue
            case "-r": options.folders.recursive = true; continue
            default: break
            }
            guard argument.hasPrefix("--") else {
                throw OptionError("unknown option '\(argument)' (options are long, e.g. --help; short ones: -h, -r)")
            }
            let (name, inlineValue) = splitInline(argument)
            guard let spec = optionTable.first(where: { $0.name == name })
                    ?? (mpvIgnored.contains(name) ? ignoredSpec(name) : nil) else {
                throw OptionError(unknownOption: name)
            }
            guard let valueName = spec.valueName else {
                if inlineValue != nil && !spec.takesInlineValue { throw OptionError("\(name) takes no value") }
                try spec.run(&options, inlineValue ?? "")
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw OptionError("\(name) needs a value (\(name) \(valueName))")
            }
            try spec.run(&options, value)
        }
        return options
    }

    /// The known option nearest to a mistyped one, if it is near enough to be a typo.
    static func closestOption(to name: String) -> String? {
        let names = optionTable.map(\.name)
        if let extended = names.first(where: { $0.hasPrefix(name) && name.count > 3 }) { return extended }
        let scored = names.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, name.count / 5) else { return nil }
        return best
    }

    /// Levenshtein distance, one row at a time.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    private static func splitInline(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
