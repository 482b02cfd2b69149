import Foundation
@testable import MediaCore
@testable import Playback
import Synchronization
import TestSupport
import Testing

/// One picture the driver was handed, and when: what a window would have shown.
struct ShownFrame {
    let pts: Double
    /// Monotonic seconds at which `nextFrame()` returned it.
    let at: Double
    /// The player's position right after it was returned.
    let position: Double
    /// Mean RGB after conversion, when the driver was asked to measure it.
    let color: (r: Double, g: Double, b: Double)?
}

/// Drives a `Player` the way the viewer's main loop does: wait for it to open, then ask
/// `nextFrame()` and sleep as told (or until the player wakes us).
final class PlayerDriver: @unchecked Sendable {
    // @unchecked: `player` is only driven from the test's thread; the semaphore is thread safe.
    let player: Player
    private let wakes = DispatchSemaphore(value: 0)
    let opened = MonotonicClock.seconds()

    init(_ path: String, audio: Bool = false, configure: (inout PlayerOptions) -> Void = { _ in }) {
        var o = PlayerOptions()
        o.audio = audio
        configure(&o)
        let sem = wakes
        // A path goes in as a file: URL, as the viewer passes local files.
        let url = path.contains("://") || path.hasPrefix("file:") ? path : "file:" + path
        player = Player(url: url, options: o, wake: { sem.signal() })
    }

    deinit { player.close() }

    /// Waits (bounded) until the player left `.opening`.
    func waitOpened(timeout: Double = 10) -> Player.Phase {
        let end = MonotonicClock.seconds() + timeout
        while MonotonicClock.seconds() < end {
            let ph = player.phase
            if ph != .opening { return ph }
            _ = wakes.wait(timeout: .now() + .milliseconds(20))
        }
        return player.phase
    }

    /// Opens and returns the description, or records why it did not open.
    func ready(timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) throws -> MediaInfo {
        switch waitOpened(timeout: timeout) {
        case .ready(let info): return info
        case .failed(let e): throw DriverError("did not open: \(e.message)")
        case .opening: throw DriverError("still opening after \(timeout) s")
        }
    }

    /// Asks for frames until `.finished`, `limit` seconds, or `stop` says so (checked
    /// after each shown frame). Returns what was shown and whether playback finished.
    @discardableResult
    func play(limit: Double, colors: Bool = false, stop: ([ShownFrame]) -> Bool = { _ in false })
        -> (frames: [ShownFrame], finished: Bool) {
        var shown: [ShownFrame] = []
        let end = MonotonicClock.seconds() + limit
        while MonotonicClock.seconds() < end {
            switch player.nextFrame() {
            case .show(let f):
                let at = MonotonicClock.seconds()
                shown.append(ShownFrame(pts: f.pts, at: at, position: player.position,
                                        color: colors ? f.averageColor() : nil))
                if stop(shown) { return (shown, false) }
            case .wait(let d):
                _ = wakes.wait(timeout: .now() + .microseconds(Int(max(0, min(d, 0.25)) * 1e6)))
            case .idle:
                _ = wakes.wait(timeout: .now() + .milliseconds(5))
            case .finished:
                return (shown, true)
            }
        }
        return (shown, false)
    }

    /// The first frame the player hands out (the picture of a still, the cover, the poster).
    func firstFrame(limit: Double = 10) -> VideoFrame? {
        let end = MonotonicClock.seconds() + limit
        while MonotonicClock.seconds() < end {
            switch player.nextFrame() {
            case .show(let f): return f
            case .finished: return nil
            case .wait(let d): _ = wakes.wait(timeout: .now() + .microseconds(Int(max(0, min(d, 0.25)) * 1e6)))
            case .idle: _ = wakes.wait(timeout: .now() + .milliseconds(5))
            }
        }
        return nil
    }

    /// Sleeps `seconds` while still answering the player (as an idle main loop would),
    /// returning any frames that came.
    func idle(_ seconds: Double) -> [ShownFrame] {
        play(limit: seconds).frames
    }
}

struct DriverError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Colour helpers: a frame's mean colour against a named expectation.
enum Colour {
    static let red = (r: 255.0, g: 0.0, b: 0.0)
    static let green = (r: 0.0, g: 255.0, b: 0.0)
    static let blue = (r: 0.0, g: 0.0, b: 255.0)

    /// Whether every channel is within `tolerance` of the expectation.
    static func near(_ c: (r: Double, g: Double, b: Double), _ e: (r: Double, g: Double, b: Double),
                     tolerance: Double = 20) -> Bool {
        abs(c.r - e.r) <= tolerance && abs(c.g - e.g) <= tolerance && abs(c.b - e.b) <= tolerance
    }

    static func text(_ c: (r: Double, g: Double, b: Double)?) -> String {
        guard let c else { return "nil" }
        return String(format: "(%.0f, %.0f, %.0f)", c.r, c.g, c.b)
    }
}

/// What this process uses, from /proc: threads and resident memory.
enum ProcSelf {
    static var threads: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    }

    /// Resident set size in kB.
    static var rssKB: Int {
        let s = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in s.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }
}
