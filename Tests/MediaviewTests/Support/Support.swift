import Foundation
import Testing
import TestSupport

/// End-to-end tests of the `mediaview` program: the real binary, run as a user runs it,
/// against the Xvfb, PulseAudio and HTTP server that `scripts/testenv.sh` starts.
///
/// Every suite of this target is nested in this one so that `.serialized` covers all of
/// them: they share one X screen and one null sink, and two programs on screen at once
/// would read each other's pixels and record each other's sound.
@Suite(.serialized) struct MediaviewProgram {}

/// A `mediaview` started in the background, with its output going to files so a test can
/// look at the screen, send input and signals while it runs.
final class Launched {
    let process: Process
    let outPath: String
    let errPath: String
    let started = Date()

    /// Starts `mediaview args` with the test environment plus `environment`; with a
    /// `wrapper` (`unshare -m sh -c ...`), `wrapper + [mediaview] + args` runs instead.
    init(_ args: [String], environment: [String: String] = [:], wrapper: [String] = []) throws {
        let dir = try Scratch.directory("launch")
        outPath = dir + "/stdout"
        errPath = dir + "/stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let command = wrapper.isEmpty ? [Run.mediaview] + args : wrapper + [Run.mediaview] + args
        process = try Run.start(command[0], Array(command.dropFirst()), environment: Run.environment(environment),
                                stdout: FileHandle(forWritingAtPath: outPath),
                                stderr: FileHandle(forWritingAtPath: errPath))
    }

    /// A program left running by a failed test must not stay on the shared screen.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// How a background run ended.
    struct Ended {
        /// The exit status, or the signal's number when `bySignal`.
        var status: Int32
        var bySignal: Bool
        var stdout: String
        var stderr: String
        /// Seconds from the start of the program.
        var seconds: Double
    }

    /// Waits for the exit; nil when it did not come within `timeout` (the program is then killed).
    func finish(timeout: Double) -> Ended? {
        guard Run.wait(process, timeout: timeout) else { return nil }
        return Ended(status: process.terminationStatus, bySignal: process.terminationReason == .uncaughtSignal,
                     stdout: read(outPath), stderr: read(errPath), seconds: Date().timeIntervalSince(started))
    }

    var stderr: String { read(errPath) }

    private func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
}

/// Private temporary directories for one test each.
enum Scratch {
    static func directory(_ label: String) throws -> String {
        let base = ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_TMP"] ?? NSTemporaryDirectory()
        let path = base + "/e2e-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Runs `mediaview` to its end with the test environment (plus `environment`), killing it
/// after `timeout` so that a hang fails the test instead of blocking the run.
func mediaview(_ args: [String], timeout: Double = 20, environment: [String: String] = [:]) throws -> Run.Result {
    try Run.process(Run.mediaview, args, timeout: timeout, environment: Run.environment(environment))
}

/// The non-empty lines of a program's output.
func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
}

/// The `--events` log: one JSON object per line, every line checked to be valid JSON.
enum Events {
    static func read(_ path: String) throws -> [[String: Any]] {
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// `event` names, optionally only those of one queue index.
    static func names(_ events: [[String: Any]], index: Int? = nil) -> [String] {
        events.filter { index == nil || $0["index"] as? Int == index }.compactMap { $0["event"] as? String }
    }

    /// Polls the log until an event with this name (and index) is there.
    @discardableResult
    static func waitFor(_ path: String, _ name: String, index: Int? = nil, timeout: Double = 10) -> [String: Any]? {
        let start = Date()
        repeat {
            // A line being written is not yet valid JSON; the next look sees it whole.
            if let all = try? read(path),
               let hit = all.first(where: { $0["event"] as? String == name && (index == nil || $0["index"] as? Int == index) }) {
                return hit
            }
            usleep(20_000)
        } while Date().timeIntervalSince(start) < timeout
        return nil
    }
}

/// The program's window on the test screen.
struct ProgramWindow {
    let id: UInt
    let x: Int, y: Int, width: Int, height: Int

    /// Waits for a mapped `mediaview` window (WM_CLASS "mediaview") of at least 1x1 pixels;
    /// with `of`, only one of that program's windows (a wrapped program's pid is the wrapper's).
    static func wait(_ probe: ScreenProbe, of run: Launched? = nil, timeout: Double = 10) -> ProgramWindow? {
        let start = Date()
        repeat {
            for id in probe.windows(className: "mediaview", pid: run?.process.processIdentifier).reversed() {
                if let g = probe.geometry(of: id), g.width > 1 {
                    return ProgramWindow(id: id, x: g.x, y: g.y, width: g.width, height: g.height)
                }
            }
            usleep(50_000)
        } while Date().timeIntervalSince(start) < timeout
        return nil
    }

    /// Grabs the window's area of the screen (what a person sees there).
    func grab(_ probe: ScreenProbe) -> Image {
        probe.grab(x: x, y: y, width: width, height: height)
    }

    /// Waits until the window's picture satisfies `condition`.
    func waitFor(_ probe: ScreenProbe, timeout: Double = 10, _ condition: (Image) -> Bool) -> Image? {
        let start = Date()
        repeat {
            let img = grab(probe)
            if img.width > 0, condition(img) { return img }
            usleep(50_000)
        } while Date().timeIntervalSince(start) < timeout
        return nil
    }
}

/// Colours as the X server reports them (0xRRGGBB).
enum RGB {
    static let red: UInt32 = 0xFF0000
    static let blue: UInt32 = 0x0000FF
    static let lime: UInt32 = 0x00FF00
    static let black: UInt32 = 0x000000
    /// `Color.defaultTheme`, the MediaView seed's blue.
    static let theme: UInt32 = 0x3D8BFD
}

/// Runs `xdotool` with a time limit; input tests fail if it does.
@discardableResult
func xdotool(_ args: [String]) throws -> Run.Result {
    let r = try Run.process("xdotool", args, timeout: 10)
    #expect(r.status == 0, "xdotool \(args.joined(separator: " ")) failed: \(r.stderr)")
    return r
}

/// Presses `q` on `window`, as the tests end a program, and leaves no key down. xdotool
/// sends its release after the press, to a window that may be gone by then (the program
/// quits on the press): the release then fails with BadWindow, and a press that came
/// through the keyboard (XTEST, the window focused) stays down in the server and
/// auto-repeats into later programs, where a new `q` is only a repeat of a held key. So q
/// is released before and after. Whether the program ended is the caller's check.
func pressQuit(on window: UInt) throws {
    _ = try Run.process("xdotool", ["keyup", "q"], timeout: 10)
    _ = try Run.process("xdotool", ["key", "--window", String(window), "q"], timeout: 10)
    _ = try Run.process("xdotool", ["keyup", "q"], timeout: 10)
}

/// A two-frame animated WebP, red then blue for 200 ms each (libwebp's encoder).
func redBlueAnimatedWebP() throws -> String {
    try Fixtures.make("odd-anim-rb.webp", ["-f", "lavfi", "-i", "color=c=red:s=64x48:r=5:d=0.2",
                                          "-f", "lavfi", "-i", "color=c=blue:s=64x48:r=5:d=0.2",
                                          "-filter_complex", "[0:v][1:v]concat=n=2:v=1",
                                          "-c:v", "libwebp_anim", "-loop", "0", "-lossless", "1"])
}

/// Which of red and blue the centre of a 320x240 window at the screen's corner shows
/// within `seconds`, looking every 40 ms (both: the animation runs).
func coloursSeenAtCentre(seconds: Double) throws -> Set<String> {
    let probe = try ScreenProbe()
    var seen: Set<String> = []
    let end = Date().addingTimeInterval(seconds)
    while seen.count < 2 && Date() < end {
        usleep(40_000)
        let img = probe.grab(x: 0, y: 0, width: 320, height: 240)
        if img.matches(160, 120, 0xFF0000) { seen.insert("red") }
        if img.matches(160, 120, 0x0000FF) { seen.insert("blue") }
    }
    return seen
}
