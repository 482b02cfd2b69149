import Viewer

/// Everything the `mediaview` command line can say, parsed and checked.
///
/// `parse(_:)` reads the arguments after the program name; every value is validated
/// here, so a typo stops the program at once with one line a user understands instead
/// of failing later deep inside playback. Defaults follow MediaView's except
/// where SPEC.md gives a desktop reason (the minimized width ratio, the track).
/// The option table and value parsers are in `ProgramOptions+Parsing.swift`.
public struct ProgramOptions: Equatable, Sendable {
    // Input and program actions.
    /// Files, `file://` URLs and `http(s)://` URLs, in queue order.
    public var inputs: [String] = []
    public var showHelp = false
    public var showVersion = false
    public var listBindings = false
    /// Print the manual page (roff) and exit.
    public var showManual = false
    /// Replaces the user's input.conf (the bundled defaults still load beneath it).
    public var inputConfPath: String?
    /// How folders given as inputs are listed, and whether one file opens its folder.
    public var browse = BrowseOptions()

    // Scripts, tests and benchmarks.
    public var autoExit = false
    /// How long a still image stays with `--autoexit`, in seconds.
    public var imageDuration: Double = 5
    /// Quit after this many frames were shown.
    public var frameLimit: Int?
    public var audioEnabled = true
    public var benchmark = false
    /// Event log destination; `-` is standard output.
    public var eventsPath: String?

    // Window.
    public var windowed = false
    /// The fullscreen window becomes the thumbnail when another application takes the
    /// focus while a video plays (`--minimize-on-blur`).
    public var minimizeOnBlur = false
    public var geometry: Geometry?
    /// An X11 window to live inside (`--wid`), as mpv does.
    public var parentWindow: UInt32?

    // Presentation and queue.
    public var loop = false
    public var autoplay = true
    public var dismissAfterFinish = false
    /// Subtitle files for every video (`--sub-file`, as often as wanted).
    public var subtitleFiles: [String] = []
    /// Offer subtitle files found beside a video with its base name.
    public var subtitleAuto = true
    /// Draw the subtitles (`v` toggles them while playing).
    public var subtitlesVisible = true
    public var swipeMode: SwipeMode = .minimize
    /// Height / width of the minimized thumbnail, already clamped to [9/16, 16/9].
    public var minimizedAspectRatio: Double = 9.0 / 16.0
    /// Fraction of the monitor's width the thumbnail takes (clamped to the monitor later).
    public var minimizedWidthRatio: Double = 1.0 / 3.0
    /// Forget the thumbnail's remembered place and size.
    public var minimizedReset = false
    /// The thumbnail shows on every workspace.
    public var minimizedSticky = true
    public var topBuffer = 0
    public var bottomBuffer = 0
    /// Nil keeps the view's own theme colour.
    public var themeColor: RGBColor?
    /// On by default on the desktop, where a mouse user expects a seek bar; it hides
    /// itself after inactivity, so it costs nothing while watching.
    public var showTrack = true
    public var remainingTime = false
    public var trackFont: String?
    /// The overlays' scale in percent (100, 150, 200); nil follows the desktop.
    public var uiScalePercent: Int?
    /// Hovering a video's track shows a picture of the hovered time.
    public var trackPreviews = true
    public var title: String?
    public var details: String?
    public var contentMode: ContentMode = .fit
    public var videoAspectFit = false
    public var hideCloseButton = false
    public var hidePlayButton = false
    public var playIconPath: String?
    public var failIconPath: String?
    public var musicIconPath: String?

    // Cache, network and limits.
    public var cacheDirectory: String?
    public var cacheEnabled = true
    public var preload = false
    /// Volume in percent, 0-100.
    public var volume = 100
    public var muted = false
    /// Playback speed, 0.25-4 (1 is the media's own pace).
    public var speed = 1.0
    /// Largest image, in pixels, that is decoded; bigger ones are refused before allocation.
    public var maxPixels = 100_000_000
    /// Network timeout in seconds.
    public var timeout: Double = 15

    /// The control socket, one instance, resume.
    public var desktop = Desktop()

    public init() {}

    /// What folders and `--browse-folder` turn into queue items.
    public struct BrowseOptions: Equatable, Sendable {
        /// Descend into subfolders (`-r`).
        public var recursive = false
        /// The order of a folder's files (`--sort`).
        public var order: FolderListing.Order = .natural
        /// Last first (`--reverse`).
        public var reversed = false
        /// A single file argument opens with the rest of its folder around it, as a file
        /// manager's "open" expects; a plain command line queues exactly what it is given.
        public var browseFolder = false

        /// Folders listed flat, in natural order; files queued as given.
        public init() {}
    }

    /// `WxH[+X+Y]`: a window size and, optionally, where its top-left corner goes.
    public struct Geometry: Equatable, Sendable {
        public var width: Int
        public var height: Int
        /// Screen coordinates of the top-left corner; may be negative on multi-monitor setups.
        public var x: Int?
        public var y: Int?

        public init(width: Int, height: Int, x: Int? = nil, y: Int? = nil) {
            (self.width, self.height, self.x, self.y) = (width, height, x, y)
        }
    }

    /// How the program lives on a desktop beside other programs and other launches of itself.
    public struct Desktop: Equatable, Sendable {
        /// mpv's JSON IPC socket; nil: `$XDG_RUNTIME_DIR/mediaview.socket` when that is set;
        /// empty: none, as in mpv.
        public var ipcServerPath: String?
        /// Hand the inputs to the instance already running on the socket, then exit.
        public var enqueue = false
        /// Start long video and audio where they were left.
        public var resume = true

        public init() {}
    }

    /// What a left-button drag on the presented view does.
    public enum SwipeMode: String, Equatable, Sendable, CaseIterable {
        case none, minimize, dismiss
    }

    /// How media fills the view: whole and letterboxed, or covering it and cropped.
    public enum ContentMode: String, Equatable, Sendable, CaseIterable {
        case fit, fill
    }

    /// An opaque colour from `#rgb`, `#rrggbb` or a CSS name.
    public struct RGBColor: Equatable, Sendable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            (self.red, self.green, self.blue) = (red, green, blue)
        }

        /// The colour as a 32-bit BGRX pixel, the layout of `PixelBuffer`.
        public var pixel: UInt32 {
            UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
        }
    }

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
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" {
                options.showHelp = true
                continue
            }
            if argument == "-r" {
                options.browse.recursive = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw OptionError("unknown option '\(argument)' (options are long, e.g. --help; short ones: -h, -r)")
            }
            let (name, inlineValue) = splitInline(argument)
            guard let spec = optionTable.first(where: { $0.name == name }) else {
                throw OptionError(unknownOption: name)
            }
            guard let valueName = spec.valueName else {
                if inlineValue != nil { throw OptionError("\(name) takes no value") }
                try spec.run(&options, "")
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

    /// The `--help` text: usage, then every option by group with its default, in 80 columns.
    public static var helpText: String {
        let labelWidth = 24
        var lines = [
            "Usage: mediaview [OPTIONS] [FILE|URL ...]",
            "Shows images, animated GIFs, video and audio as a fullscreen queue.",
            "With no input it plays the bundled demo. Keys: see --list-bindings.",
        ]
        for group in groupOrder {
            lines.append("")
            lines.append(group + ":")
            for spec in optionTable where spec.group == group {
                let label = spec.name + (spec.valueName.map { " " + $0 } ?? "")
                var help = wrap(spec.help, width: 80 - labelWidth - 4)
                if label.count > labelWidth {
                    lines.append("  " + label)
                } else {
                    let first = help.isEmpty ? "" : help.removeFirst()
                    lines.append("  " + label + String(repeating: " ", count: labelWidth - label.count) + "  " + first)
                }
                lines += help.map { String(repeating: " ", count: labelWidth + 4) + $0 }
            }
        }
        lines.append("")
        lines.append("Exit status: 0 all items played, 1 an item failed, 2 bad usage or no X display.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Greedy word wrap; a word longer than the width gets a line of its own.
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
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

/// A command-line mistake, described in one line that starts with `mediaview: `.
public struct OptionError: Error, Equatable, CustomStringConvertible {
    /// The message without the program name.
    public let message: String

    public init(_ message: String) {
        // Messages quote what the user typed; a newline in it must not break the one line.
        self.message = String(message.map { $0.isNewline ? " " : $0 })
    }

    /// An unknown `--option`, with the closest real one suggested when there is one.
    init(unknownOption name: String) {
        if let suggestion = ProgramOptions.closestOption(to: name) {
            self.init("unknown option '\(name)' (did you mean \(suggestion)?)")
        } else {
            self.init("unknown option '\(name)' (see mediaview --help)")
        }
    }

    public var description: String { "mediaview: " + message }
}
