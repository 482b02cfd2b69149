import FoundationEssentials
import Glibc
import MediaCore
import Playback
import ThumbnailCache
import Viewer

/// One run of the program once it knows what to show: the queue it builds, the recorders
/// on its items, its control socket, and the exit status it ends with.
///
/// `ViewerApp.main` calls its steps in order: `buildQueue`, `startControlSocket`,
/// `feedQueue`, `play`, `finish`.
@MainActor
final class ProgramRun {
    let options: ProgramOptions
    let environment: [String: String]
    let log: EventLog?
    /// The items from the command line, folders listed.
    let inputs: InputExpansion
    let queue = MediaQueue.shared
    /// Images replacing the play, fail and music indicators, from `--play-icon` and the rest.
    var icons = ItemIcons()
    var signals: SignalWatch?
    var ipc: IPCController?
    /// Where long video and audio were left, heard from every item; nil with `--no-resume`
    /// or no state directory.
    var resumer: ResumeRecorder?
    /// The view every item is made like (`makeItem`), made with the first item.
    var template: MediaView?
    /// Items made so far: the next one's index in the event log.
    var made = 0
    /// What kept the queue from showing (no X display): reported once the queue is fed.
    var displayError: String?

    init(options: ProgramOptions, environment: [String: String], log: EventLog?, inputs: InputExpansion) {
        self.options = options
        self.environment = environment
        self.log = log
        self.inputs = inputs
    }

    /// Sets up the queue's presentation from the options and the environment, and how every
    /// item is made, whether from the command line, a drop, Ctrl+V or the control socket.
    func buildQueue(bindings: InputBindings) {
        if let dir = environment["TMPDIR"], dir.hasPrefix("/") { MediaView.temporaryDirectory = dir }
        var presentation = makePresentation(bindings: bindings)
        if options.minimizing.reset, let path = presentation.thumbnailMemoryPath { unlink(path) }
        presentation.onError = { self.displayError = $0 }
        presentation.onWarning = { ViewerApp.say("mediaview: \($0)") }
        queue.presentation = presentation
        EventRecorder.anyFailed = false
        signals = SignalWatch.install(on: queue)
        icons = ItemIcons(options.look)
        if options.desktop.resume {
            resumer = ViewerApp.stateDirectory(environment).map { ResumeRecorder(store: ResumeStore(path: $0 + "/resume")) }
        }
        // Items dropped or pasted later are made as the command line's are.
        queue.presentation.makeView = { self.makeItem($0) }
        queue.presentation.onMessage = { ViewerApp.say("mediaview: \($0)") }
    }

    /// The queue's presentation: window, bindings, trash, screenshots, icons, thumbnails.
    private func makePresentation(bindings: InputBindings) -> PresentationOptions {
        var presentation = PresentationOptions()
        presentation.windowed = options.window.windowed
        presentation.minimizesOnBlur = options.window.minimizeOnBlur
        presentation.pointerHiding = options.window.pointerHiding
        presentation.geometry = options.window.geometry.map { ($0.width, $0.height, $0.x, $0.y) }
        presentation.parentWindow = options.window.parentWindow.map { UInt($0) }
        presentation.autoExit = options.scripts.autoexit || options.scripts.benchmark
        // A media player moves on when an item has played or failed.
        presentation.advancesAutomatically = true
        presentation.frameLimit = options.scripts.frameLimit
        presentation.bindings = bindings
        presentation.trash = Trash(homeTrash: ViewerApp.homeTrash(environment))
        presentation.screenshotDirectory = ViewerApp.picturesDirectory(environment)
        let assets = ViewerApp.assetsDirectory()
        presentation.windowIcons = [16, 32, 48, 64, 128].compactMap {
            RGBAImage(rgbaFile: assets + "/icons/window/mediaview-\($0)x\($0).rgba", width: $0, height: $0)
        }
        presentation.thumbnailMemoryPath = ViewerApp.stateDirectory(environment).map { $0 + "/thumbnail-places" }
        presentation.thumbnailStore = GalleryRecorder.thumbnailDirectory(environment).map {
            ThumbnailStore(directory: $0, application: "mediaview-" + ViewerApp.version)
        }
        let log = self.log
        presentation.onGalleryEvent = { GalleryRecorder.record($0, to: log) }
        if let log { presentation.onInput = { InputRecorder.record($0, to: log) } }
        return presentation
    }

    /// Serves the control socket, which makes items as the command line does. A socket the
    /// user named that cannot be served ends the launch.
    func startControlSocket(at path: String?) throws(ViewerApp.ExitStatus) {
        switch ViewerApp.startIPC(at: path, explicit: options.desktop.ipcServerPath != nil,
                                  idle: options.desktop.idle, makeView: { self.makeItem($0) }) {
        case .success(let controller): ipc = controller
        case .failure(let status): throw status
        }
    }

    /// Gives the queue its items. A big folder reaches it in batches from the loop, so its
    /// first picture does not wait for the rest.
    func feedQueue() throws(ViewerApp.ExitStatus) {
        let feeder = QueueFeeder(items: inputs.items, startIndex: inputs.startIndex, log: log) { _, input in
            self.makeItem(input)
        }
        feeder.start(on: queue)
        if options.inputs.isEmpty && options.desktop.idle == .no {
            // The demo runs as a slide show and tells a newcomer the keys on its first item.
            queue.presentation.advancesStills = true
            queue.current?.showMessage("← → previous and next · i info · F fit · g gallery · q quit", seconds: 6)
        }
        if let e = displayError {
            ViewerApp.say("mediaview: \(e)")
            ipc?.server.close()
            throw ViewerApp.ExitStatus(code: 2)
        }
    }

    /// Publishes the queue on the session bus and runs it until it ends.
    func play() {
        let mpris = DesktopBus.start(on: queue, environment: environment, verbose: options.desktop.verbose)
        // The program ends when its list is done (or everything was closed), unlike an app
        // that queues views as it goes.
        queue.endsWhenEmpty = true
        queue.run()
        withExtendedLifetime(mpris) {}
    }

    /// Remembers where the item on screen was left, reports the figures, lets go of players
    /// and windows, and returns the exit status.
    func finish() -> Int32 {
        // The item on screen at the end is left, not dismissed: remember where.
        if let c = queue.current { resumer?.remember(c) }
        let stats = queue.statistics
        if options.scripts.benchmark { print(Self.benchmarkLine(stats)) }
        log?.log("stats", [("frames", .int(stats.framesShown)), ("dropped", .int(stats.droppedFrames))])
        // A script's `quit CODE` decides the status, as in mpv.
        var status: Int32 = ipc?.exitCode ?? (EventRecorder.anyFailed || inputs.emptyFolders > 0 ? 1 : 0)
        if let sig = signals?.received {
            // The shell's convention for "ended by a signal", after a clean shutdown.
            ViewerApp.say("mediaview: stopped by signal \(sig)")
            status = 128 + sig
        }
        // Let go of players (sound streams) and windows before the process ends, then wait
        // for the threads that were working for them (a preview, a thumbnail, a player's
        // last release): `exit` must not tear the libraries down under one of them.
        queue.shutdown()
        let left = BackgroundThreads.waitForAll(seconds: Self.threadGrace)
        log?.log("exit", [("status", .int(Int(status))), ("threads", .int(left))])
        ipc?.shutdown()
        return status
    }

    /// Seconds the end waits for background threads: longer than a preview's or a
    /// thumbnail's bounded piece of work, short enough that a quit still feels instant.
    static let threadGrace = 3.0

    /// Summary line of `--benchmark`.
    static func benchmarkLine(_ s: PlaybackStatistics) -> String {
        let fps = s.seconds > 0 ? Double(s.framesShown) / s.seconds : 0
        return "frames=\(s.framesShown) seconds=\(TextFormat.fixed(s.seconds, digits: 3)) "
            + "fps=\(TextFormat.fixed(fps, digits: 2)) dropped=\(s.droppedFrames)"
    }
}
