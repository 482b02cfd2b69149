import Foundation

/// Runs programs for the tests, with a time limit so that a hang fails instead of blocking.
public enum Run {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var timedOut: Bool
        /// Seconds it took.
        public var seconds: Double
    }

    /// Runs `tool` (a path, or a name looked up in PATH) and collects its output.
    ///
    /// Output goes to files, not pipes: a grandchild left running (a server a script
    /// started) would hold a pipe open and block the reader forever.
    public static func process(_ tool: String, _ args: [String], timeout: Double = 60,
                               environment: [String: String]? = nil, stdin: String? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool.hasPrefix("/") ? tool : try which(tool))
        p.arguments = args
        if let environment { p.environment = environment }
        let base = Fixtures.directory + "/.run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
        defer { unlink(base + ".out"); unlink(base + ".err") }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".out"))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".err"))
        p.standardOutput = out
        p.standardError = err
        let input = stdin == nil ? nil : Pipe()
        p.standardInput = input ?? FileHandle.nullDevice
        let start = Date()
        try launch(p)
        try? out.close()
        try? err.close()
        if let stdin, let input {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
        var timedOut = false
        while p.isRunning {
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                // TERM first, so a script's cleanup (testenv's) can stop what it started.
                kill(p.processIdentifier, SIGTERM)
                if !wait(p, timeout: 5) { kill(p.processIdentifier, SIGKILL) }
                break
            }
            usleep(10_000)
        }
        p.waitUntilExit()
        func text(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        return Result(status: p.terminationStatus, stdout: text(base + ".out"), stderr: text(base + ".err"),
                      timedOut: timedOut, seconds: Date().timeIntervalSince(start))
    }

    /// Starts a program in the background; the caller waits or kills it.
    public static func start(_ tool: String, _ args: [String], environment: [String: String]? = nil,
                             stdout: FileHandle? = nil, stderr: FileHandle? = nil) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool.hasPrefix("/") ? tool : try which(tool))
        p.arguments = args
        if let environment { p.environment = environment }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = stdout ?? FileHandle.nullDevice
        p.standardError = stderr ?? FileHandle.nullDevice
        try launch(p)
        return p
    }

    /// Starts `p` with no signal blocked. The threads the tests run on block SIGTERM, SIGINT
    /// and the rest, as dispatch's worker threads do, and a spawned program inherits its
    /// spawner's mask: a window manager started from there never heard the SIGTERM that
    /// asked it to quit, and was killed 5 s later.
    public static func launch(_ p: Process) throws {
        var none = sigset_t(), old = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        try p.run()
    }

    /// Waits for `p` up to `timeout` seconds; kills it if it is still running then.
    @discardableResult
    public static func wait(_ p: Process, timeout: Double) -> Bool {
        let start = Date()
        while p.isRunning && Date().timeIntervalSince(start) < timeout { usleep(10_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            return false
        }
        p.waitUntilExit()
        return true
    }

    public static func which(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let c = "\(dir)/\(name)"
            if access(c, X_OK) == 0 { return c }
        }
        throw FixtureError("\(name) not found in PATH (make test installs it)")
    }

    /// The `mediaview` executable built next to the test bundle.
    public static var mediaview: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for dir in [bundle, bundle.deletingLastPathComponent()] {
            let c = dir.appendingPathComponent("mediaview").path
            if access(c, X_OK) == 0 { return c }
        }
        return repositoryRoot + "/.build/debug/mediaview"
    }

    /// The repository's root, found from this file's path.
    public static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// The environment for running `mediaview` in tests: the test environment's display
    /// and sound server, the repository's assets, plus `extra`.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["MEDIAVIEW_ASSETS"] = repositoryRoot + "/assets"
        for (k, v) in extra { env[k] = v }
        return env
    }
}
