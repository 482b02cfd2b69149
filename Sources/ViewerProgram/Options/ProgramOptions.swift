import Viewer

/// Everything the `mediaview` command line can say, parsed and checked, grouped by concern:
/// `options.window.geometry`, `options.playback.volume`, `options.folders.sort`, ...
///
/// `parse(_:)` reads the arguments after the program name; every value is validated
/// there, so a typo stops the program at once with one line a user understands instead
/// of failing later deep inside playback. Defaults follow MediaView's except where the
/// desktop asks for another (the minimized width ratio, the track). Each group is also a
/// section of `--help` and of the man page, and the option table in
/// `ProgramOptions+Parsing.swift` says which option sets which field.
public struct ProgramOptions: Equatable, Sendable {
    /// Files, `file://` URLs and `http(s)://` URLs, in queue order.
    public var inputs: [String] = []
    /// Print something and exit: help, version, bindings, the manual.
    public var information = Information()
    /// For scripts, tests and benchmarks: quitting by itself, the event log.
    public var scripts = Scripts()
    /// How folders given as inputs are listed, and whether one file opens its folder.
    public var folders = Folders()
    /// Fullscreen or a window, and where.
    public var window = Window()
    /// How each item plays: looping, sound, speed, subtitles, fit.
    public var playback = Playback()
    /// The thumbnail a drag down makes.
    public var minimizing = Minimizing()
    /// The overlays: track, title, buttons, colours, scale.
    public var look = Look()
    /// The media cache, the network and the size limits.
    public var cache = Cache()
    /// The control socket, one instance, resume.
    public var desktop = Desktop()

    /// The defaults: fullscreen, autoplay, sound on, the bundled bindings.
    public init() {}

    /// How the program lives on a desktop beside other programs and other launches of itself.
    public struct Desktop: Equatable, Sendable {
        /// mpv's JSON IPC socket; nil: `$XDG_RUNTIME_DIR/mediaview.socket` when that is set;
        /// empty: none, as in mpv.
        public var ipcServerPath: String?
        /// Hand the inputs to the instance already running on the socket, then exit.
        public var enqueue = false
        /// Start long video and audio where they were left.
        public var resume = true
        /// mpv's `--idle`: whether the window stays with nothing loaded.
        public var idle = Idle.no
        /// mpv options given that mean nothing here, as written; `--verbose` names them.
        public var ignoredOptions: [String] = []
        /// Say more: which mpv options given mean nothing here, and which desktop services
        /// are merely absent (no session bus).
        public var verbose = false

        public init() {}
    }

    /// mpv's `--idle`: `no` ends the program when the playlist is empty; `yes` keeps the
    /// window for a controlling script to load files into; `once` does so only until the
    /// first file was loaded.
    public enum Idle: String, Equatable, Sendable, CaseIterable {
        case no, yes, once
    }
}
