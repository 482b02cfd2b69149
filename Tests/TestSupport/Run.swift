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
    public static func process(_ tool: String, _ args: [String], timeout: Double = 60,
                               environment: [String: String]? = nil, stdin: String? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool.hasPrefix("/") ? tool : try which(tool))
        p.arguments = args
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = stdin == nil ? FileHandle.nullDevice : Pipe()
        let start = Date()
        try p.run()
        if let stdin, let pipe = p.standardInput as? Pipe {
            pipe.fileHandleForWriting.write(Data(stdin.utf8))
            try? pipe.fileHandleForWriting.close()
        }
        // Read both pipes on their own threads so a chatty child never blocks on a full pipe.
        let outData = Collector(out.fileHandleForReading)
        let errData = Collector(err.fileHandleForReading)
        var timedOut = false
        while p.isRunning {
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                kill(p.processIdentifier, SIGKILL)
                break
            }
            usleep(10_000)
        }
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: outData.text(), stderr: errData.text(), timedOut: timedOut,
                      seconds: Date().timeIntervalSince(start))
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
        try p.run()
        return p
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

/// Reads a pipe to its end on a background thread.
final class Collector: @unchecked Sendable {
    // @unchecked: `data` is written by the reader thread and read only after `done` fired.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        done.signal()
        return String(decoding: data, as: UTF8.self)
    }
}
