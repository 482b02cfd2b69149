import FoundationEssentials
import Glibc
import MediaCore
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
    /// 2 bad usage or no usable environment. Each step either hands the next its result or
    /// ends the launch with a status (help printed, a running instance took the files, a
    /// bad option).
    public static func main(arguments: [String]) -> Int32 {
        do throws(ExitStatus) {
            let options = try parseOptions(arguments)
            let environment = ProcessInfo.processInfo.environment
            FFmpegLog.showsFFmpegLines = environment["MEDIAVIEW_FFMPEG_LOG"] == "1"
            // `--list-bindings` prints them and ends here, whatever the inputs.
            if options.information.listBindings { _ = try loadBindings(for: options, environment: environment) }
            let ipcPath = try handOverToRunningInstance(options, environment: environment)
            let log = try openEventLog(options)
            let inputs = try expandInputs(options, log: log)
            // The workers' start is the longest step of a film's launch, so it goes before
            // the key bindings are read.
            startDecoderAhead(for: inputs, options: options)
            let bindings = try loadBindings(for: options, environment: environment)
            let run = ProgramRun(options: options, environment: environment, log: log, inputs: inputs)
            run.buildQueue(bindings: bindings)
            try run.startControlSocket(at: ipcPath)
            try run.feedQueue()
            run.play()
            return run.finish()
        } catch {
            return error.code
        }
    }

    /// Ends the process with `status`, after `main` returned it.
    ///
    /// Normally through `exit`, which also runs the libraries' own clean-up. If a thread
    /// of the viewer is still running (stuck in a system call past the end's grace time),
    /// the program's output is flushed and it leaves with `_exit`: the libraries'
    /// destructors running under a live thread crashed the viewer at quit, and the event
    /// log, state files and sockets are already written and closed by then.
    public static func end(with status: Int32) -> Never {
        DecodeWorkers.shared.endAll()
        if BackgroundThreads.running == 0 { exit(status) }
        fflush(nil)
        _exit(status)
    }

    /// The checked options; the information options print and end the launch here.
    static func parseOptions(_ arguments: [String]) throws(ExitStatus) -> ProgramOptions {
        var options: ProgramOptions
        do {
            options = try ProgramOptions.parse(arguments)
        } catch {
            say("\(error.description) (see --help)")
            throw ExitStatus(code: 2)
        }
        let info = options.information
        if info.showHelp { print(ProgramOptions.helpText); throw ExitStatus(code: 0) }
        if info.showVersion { print("mediaview \(version)"); throw ExitStatus(code: 0) }
        if info.showManual { print(ProgramOptions.manPage(version: version), terminator: ""); throw ExitStatus(code: 0) }
        // A subtitle file that is not there is said once, not once for every item it was
        // to go with, and the media play without it (as mpv does).
        options.playback.subtitleFiles = options.playback.subtitleFiles.filter { path in
            if access(path, R_OK) == 0 { return true }
            say("mediaview: --sub-file \(path): \(String(cString: strerror(errno))); playing without it")
            return false
        }
        return options
    }

    /// The key bindings: the built-in ones with the user's input.conf laid over them, each
    /// bad line said and skipped. `--list-bindings` prints them and ends the launch.
    static func loadBindings(for options: ProgramOptions,
                             environment: [String: String]) throws(ExitStatus) -> InputBindings {
        let userFile = options.information.inputConfPath ?? InputBindings.userFilePath(environment: environment)
        let loaded = InputBindings.load(userFile: userFile)
        for p in loaded.problems { say("mediaview: \(p)") }
        if options.information.listBindings {
            print(loaded.bindings.listing(), terminator: "")
            throw ExitStatus(code: 0)
        }
        return loaded.bindings
    }

    /// The control socket's path; with `--enqueue`, the files go to the instance already
    /// serving it, which ends this launch.
    static func handOverToRunningInstance(_ options: ProgramOptions,
                                          environment: [String: String]) throws(ExitStatus) -> String? {
        let ipcPath = options.desktop.ipcServerPath.map { $0.isEmpty ? nil : $0 } ?? defaultIPCPath(environment)
        guard options.desktop.enqueue else { return ipcPath }
        // A running player gets files, not folders; one file opened from a file manager
        // joins it alone rather than bringing its whole folder into that queue.
        var plain = options.folders
        plain.browseFolder = false
        let items = InputExpansion.expand(options.inputs, folders: plain, log: nil, quiet: true).items
        if !items.isEmpty || options.inputs.isEmpty, let status = enqueue(items, at: ipcPath) {
            throw ExitStatus(code: status)
        }
        return ipcPath
    }

    /// The `--events` log, if asked for; a log that cannot be opened is bad usage.
    static func openEventLog(_ options: ProgramOptions) throws(ExitStatus) -> EventLog? {
        guard let path = options.scripts.eventsPath else { return nil }
        do {
            return try EventLog(path: path)
        } catch {
            say("mediaview: \(error.description)")
            throw ExitStatus(code: 2)
        }
    }

    /// The queue's items: the inputs with folders listed, or the bundled demo when there
    /// are none. Nothing to show ends the launch.
    static func expandInputs(_ options: ProgramOptions, log: EventLog?) throws(ExitStatus) -> InputExpansion {
        if options.desktop.verbose {
            for o in options.desktop.ignoredOptions { say("mediaview: \(o): an mpv option with no meaning here; ignored") }
        }
        var inputs = options.inputs
        // Idle, an empty start is what was asked for: a script loads the files.
        let idles = options.desktop.idle != .no
        if inputs.isEmpty && !idles { inputs = demoFiles(in: assetsDirectory()) }
        if inputs.isEmpty && !idles {
            say("mediaview: nothing to show (no files given and no demo media found)")
            throw ExitStatus(code: 2)
        }
        let expansion = InputExpansion.expand(inputs, folders: options.folders, log: log)
        if expansion.items.isEmpty && !(idles && inputs.isEmpty) {
            // Each empty folder has said so in its own line.
            log?.log("exit", [("status", .int(1))])
            throw ExitStatus(code: 1)
        }
        return expansion
    }

    /// Starts what the first item will need while the window is made: the sandboxed workers
    /// when the sandbox is on, and the FFmpeg libraries the viewer itself needs. The workers
    /// first: a thread cannot be started while another holds the dynamic linker's lock, so
    /// started after FFmpeg's load had begun, the threads that start the workers waited
    /// for it, and with them the zygote every worker comes from.
    static func startDecoderAhead(for inputs: InputExpansion, options: ProgramOptions) {
        guard inputs.items.indices.contains(inputs.startIndex) else { return }
        let first = inputs.items[inputs.startIndex]
        if options.cache.sandbox != .off { DecodeWorkers.shared.startAhead(for: first, sound: options.scripts.audioEnabled) }
        FFmpegAhead.load(for: first, sandboxed: options.cache.sandbox != .off)
    }

    static func say(_ line: String) {
        StandardError.write(line)
    }
}
