import FoundationEssentials
import Glibc
import Playback
import Viewer

/// The `mediaview` program: options in, a queue presented, an exit status out.
///
/// It is a module of its own, outside the library, so that tests run it in-process and the
/// library keeps no command-line policy: signal handling, the event log, the exit status
/// and the environment variables the program honours all live here.
@MainActor
public enum ViewerApp {
    /// The program's version, as `--version` prints it.
    public static let version = "0.1.0"

    /// Runs the program and returns its exit status: 0 all played, 1 some item failed,
    /// 2 bad usage or no usable environment.
    public static func main(arguments: [String]) -> Int32 {
        var opts: ProgramOptions
        do {
            opts = try ProgramOptions.parse(arguments)
        } catch {
            say("\(error.description) (see --help)")
            return 2
        }
        if opts.showHelp { print(ProgramOptions.helpText); return 0 }
        if opts.showVersion { print("mediaview \(version)"); return 0 }
        if opts.showManual { print(ProgramOptions.manPage(version: version), terminator: ""); return 0 }
        // A subtitle file that is not there is said once, not once for every item it was
        // to go with, and the media play without it (as mpv does).
        opts.subtitleFiles = opts.subtitleFiles.filter { path in
            if access(path, R_OK) == 0 { return true }
            say("mediaview: --sub-file \(path): \(String(cString: strerror(errno))); playing without it")
            return false
        }
        let environment = ProcessInfo.processInfo.environment
        FFmpegLog.showsFFmpegLines = environment["MEDIAVIEW_FFMPEG_LOG"] == "1"
        let loaded = InputBindings.load(userFile: opts.inputConfPath ?? InputBindings.userFilePath(environment: environment))
        for p in loaded.problems { say("mediaview: \(p)") }
        if opts.listBindings { print(loaded.bindings.listing(), terminator: ""); return 0 }
        let ipcPath = opts.desktop.ipcServerPath.map { $0.isEmpty ? nil : $0 } ?? defaultIPCPath(environment)
        if opts.desktop.enqueue {
            // A running player gets files, not folders; one file opened from a file manager
            // joins it alone rather than bringing its whole folder into that queue.
            var plain = opts.browse
            plain.browseFolder = false
            let items = InputExpansion.expand(opts.inputs, browse: plain, log: nil, quiet: true).items
            if !items.isEmpty || opts.inputs.isEmpty, let status = enqueue(items, at: ipcPath) { return status }
        }

        var log: EventLog?
        if let path = opts.eventsPath {
            do { log = try EventLog(path: path) } catch { say("mediaview: \(error.description)"); return 2 }
        }
        let assets = assetsDirectory()
        var inputs = opts.inputs
        if inputs.isEmpty { inputs = demoFiles(in: assets) }
        if inputs.isEmpty { say("mediaview: nothing to show (no files given and no demo media found)"); return 2 }
        let expansion = InputExpansion.expand(inputs, browse: opts.browse, log: log)
        if expansion.items.isEmpty {
            // Each empty folder has said so in its own line.
            log?.log("exit", [("status", .int(1))])
            return 1
        }
        if let dir = environment["TMPDIR"], dir.hasPrefix("/") { MediaView.temporaryDirectory = dir }

        let queue = MediaQueue.shared
        var presentation = PresentationOptions()
        presentation.windowed = opts.windowed
        presentation.minimizesOnBlur = opts.minimizeOnBlur
        presentation.geometry = opts.geometry.map { ($0.width, $0.height, $0.x, $0.y) }
        presentation.parentWindow = opts.parentWindow.map { UInt($0) }
        presentation.autoExit = opts.autoExit || opts.benchmark
        // A media player moves on when an item has played or failed.
        presentation.advancesAutomatically = true
        presentation.frameLimit = opts.frameLimit
        presentation.bindings = loaded.bindings
        presentation.trash = Trash(homeTrash: homeTrash(environment))
        presentation.screenshotDirectory = picturesDirectory(environment)
        presentation.windowIcons = [16, 32, 48, 64, 128].compactMap {
            RGBAImage(contentsOfFile: assets + "/icons/hicolor/\($0)x\($0)/apps/mediaview.png")
        }
        presentation.thumbnailMemoryPath = stateDirectory(environment).map { $0 + "/thumbnail-places" }
        presentation.thumbnailStore = GalleryRecorder.thumbnailDirectory(environment).map {
            ThumbnailStore(directory: $0, application: "mediaview-" + version)
        }
        presentation.onGalleryEvent = { GalleryRecorder.record($0, to: log) }
        if opts.minimizedReset, let path = presentation.thumbnailMemoryPath { unlink(path) }
        var displayError: String?
        presentation.onError = { displayError = $0 }
        presentation.onWarning = { say("mediaview: \($0)") }
        queue.presentation = presentation
        EventRecorder.anyFailed = false
        let signals = SignalWatch.install(on: queue)
        let icons = (play: opts.playIconPath.flatMap { loadIcon($0) }, fail: opts.failIconPath.flatMap { loadIcon($0) },
                     music: opts.musicIconPath.flatMap { loadIcon($0) })

        var made = 0
        var ipc: IPCController?
        let resumeStore = opts.desktop.resume ? stateDirectory(environment).map { ResumeStore(path: $0 + "/resume") } : nil
        var resumers: [ObjectIdentifier: ResumeRecorder] = [:]
        // Every item, from the command line or a script on the socket, is made the same way.
        let build = { (input: String) -> MediaView in
            let v = makeView(input, options: opts)
            v.customPlayButton = icons.play
            v.customFailButton = icons.fail
            v.customMusicButton = icons.music
            v.addObserver(EventRecorder(log: log, index: made, source: SourceOptions.redacted(input)))
            made += 1
            ipc?.adopt(v)
            if let store = resumeStore {
                let r = ResumeRecorder(store: store, source: absoluteInput(input))
                v.addObserver(r)
                resumers[ObjectIdentifier(v)] = r
            }
            return v
        }
        // Items dropped or pasted later are made the same way too.
        queue.presentation.makeView = { build($0) }
        queue.presentation.onMessage = { say("mediaview: \($0)") }
        switch startIPC(at: ipcPath, explicit: opts.desktop.ipcServerPath != nil, makeView: build) {
        case .success(let controller): ipc = controller
        case .failure(let status): return status.code
        }
        defer { ipc?.server.close() }

        // A big folder reaches the queue in batches from the loop: its first picture
        // does not wait for the rest.
        let feeder = QueueFeeder(items: expansion.items, startIndex: expansion.startIndex, log: log) { _, input in
            build(input)
        }
        feeder.start(on: queue)
        if let e = displayError {
            say("mediaview: \(e)")
            return 2
        }
        let mpris = DesktopBus.start(on: queue, environment: environment)
        queue.run()
        withExtendedLifetime(mpris) {}
        // The item on screen at the end is left, not dismissed: remember where.
        if let c = queue.current { resumers[ObjectIdentifier(c)]?.remember(c) }
        let stats = queue.statistics
        if opts.benchmark { print(benchmarkLine(stats)) }
        log?.log("stats", [("frames", .int(stats.framesShown)), ("dropped", .int(stats.droppedFrames))])
        var status: Int32 = EventRecorder.anyFailed || expansion.emptyFolders > 0 ? 1 : 0
        if let sig = signals.received {
            // The shell's convention for "ended by a signal", after a clean shutdown.
            say("mediaview: stopped by signal \(sig)")
            status = 128 + sig
        }
        // Let go of players (sound streams) and windows before the process ends.
        queue.shutdown()
        log?.log("exit", [("status", .int(Int(status)))])
        return status
    }

    /// Where the program keeps what it remembers between runs: `$XDG_STATE_HOME/mediaview`,
    /// or `~/.local/state/mediaview` when that is unset or not absolute (as the XDG spec
    /// says); nil when not even HOME is known.
    static func stateDirectory(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/mediaview" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/mediaview" }
        return nil
    }

    /// Summary line of `--benchmark`.
    static func benchmarkLine(_ s: PlaybackStatistics) -> String {
        let fps = s.seconds > 0 ? Double(s.framesShown) / s.seconds : 0
        return "frames=\(s.framesShown) seconds=\(TextFormat.fixed(s.seconds, digits: 3)) "
            + "fps=\(TextFormat.fixed(fps, digits: 2)) dropped=\(s.droppedFrames)"
    }

    /// A view configured from the command line.
    static func makeView(_ input: String, options o: ProgramOptions) -> MediaView {
        let v = MediaView()
        v.setMedia(url: input)
        v.setTitle(o.title, details: o.details)
        v.shouldAutoPlayAfterPresentation = o.autoplay
        v.allowLooping = o.loop
        v.shouldDismissAfterFinishedPlaying = o.dismissAfterFinish
        v.shouldShowTrack = o.showTrack
        v.shouldDisplayRemainingTime = o.remainingTime
        v.trackFont = o.trackFont
        v.shouldShowTrackPreviews = o.trackPreviews
        if let p = o.uiScalePercent { v.interfaceScale = InterfaceScale(factor: Double(p) / 100) }
        if let c = o.themeColor { v.themeColor = Color(r: c.red, g: c.green, b: c.blue) }
        v.contentMode = o.contentMode == .fill ? .scaleAspectFill : .scaleAspectFit
        v.videoAspectFit = o.videoAspectFit
        v.swipeMode = MediaView.SwipeMode(rawValue: o.swipeMode.rawValue) ?? .minimize
        v.minimizedAspectRatio = AspectRatio(o.minimizedAspectRatio)
        v.minimizedWidthRatio = o.minimizedWidthRatio
        v.minimizedOnAllWorkspaces = o.minimizedSticky
        v.topBuffer = EdgeBuffer(o.topBuffer)
        v.bottomBuffer = EdgeBuffer(o.bottomBuffer)
        v.shouldHideCloseButton = o.hideCloseButton
        v.shouldHidePlayButton = o.hidePlayButton
        v.imageDuration = o.imageDuration
        // Embedded with --wid, a click grows the view to fullscreen, as inline views do.
        v.shouldDisplayFullscreen = o.parentWindow != nil
        v.playerOptions.audio = o.audioEnabled && !o.benchmark
        v.playerOptions.untimed = o.benchmark
        v.playerOptions.volume = Double(o.volume) / 100
        v.playerOptions.muted = o.muted
        v.playbackSpeed = o.speed
        v.playerOptions.source.maxPixels = o.maxPixels
        v.playerOptions.source.networkTimeout = o.timeout
        v.playerOptions.subtitleFiles = o.subtitleFiles
        v.playerOptions.findsSubtitleFiles = o.subtitleAuto
        v.showsSubtitles = o.subtitlesVisible
        CacheManager.shared.configure(directory: o.cacheDirectory, enabled: o.cacheEnabled)
        v.shouldPreloadPlayableMedia = o.preload
        return v
    }

    /// An indicator image from any picture file; a bad one is reported and the built-in
    /// indicator stays.
    static func loadIcon(_ path: String) -> RGBAImage? {
        if let image = RGBAImage(contentsOfFile: path) { return image }
        say("mediaview: icon \(path): cannot read it as a picture; using the built-in one")
        return nil
    }

    /// Where the bundled assets are: `$MEDIAVIEW_ASSETS`, the install's share directory, or
    /// the source tree the binary was built in.
    static func assetsDirectory() -> String {
        let env = ProcessInfo.processInfo.environment
        if let a = env["MEDIAVIEW_ASSETS"], !a.isEmpty { return a }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidates = [exe.appendingPathComponent("../share/mediaview").path,
                          exe.appendingPathComponent("../../assets").path,
                          exe.appendingPathComponent("../../../assets").path,
                          FileManager.default.currentDirectoryPath + "/assets"]
        for c in candidates where FileManager.default.fileExists(atPath: c + "/demo") {
            return URL(fileURLWithPath: c).standardized.path
        }
        return candidates.last!
    }

    static func demoFiles(in assets: String) -> [String] {
        let dir = assets + "/demo"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { dir + "/" + $0 }
    }

    /// `$XDG_DATA_HOME/Trash` when that is an absolute path, as the Trash specification says;
    /// otherwise the library's `~/.local/share/Trash`.
    static func homeTrash(_ environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/Trash" }
        return Trash.defaultHomeTrash
    }

    static func say(_ line: String) {
        StandardError.write(line)
    }
}
