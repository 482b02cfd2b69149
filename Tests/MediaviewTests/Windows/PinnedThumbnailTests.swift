import Foundation
import Testing
import TestSupport

/// Pinned thumbnails: `P` keeps the item playing in a thumbnail of its own while the queue
/// presents the next one; several stack up from the corner, each with its own sound.
@Suite(.serialized)
struct PinnedThumbnailTests {
    let state = Fixtures.directory + "/pinned-state-\(UInt32.random(in: 0...UInt32.max))"

    func xdo(_ args: [String]) throws {
        let r = try Run.process("xdotool", args, timeout: 10)
        #expect(r.status == 0, "xdotool \(args): \(r.stderr)")
    }

    /// Power of `frequency` in the recording, relative to the whole signal's (Goertzel).
    func share(of frequency: Double, in samples: [Int16], rate: Double = 48000) -> Double {
        let x = samples.suffix(24000).map { Double($0) }
        guard !x.isEmpty else { return 0 }
        let c = 2 * cos(2 * Double.pi * frequency / rate)
        var s1 = 0.0, s2 = 0.0
        for v in x { let s0 = v + c * s1 - s2; s2 = s1; s1 = s0 }
        let power = (s1 * s1 + s2 * s2 - c * s1 * s2) / Double(x.count)
        let total = x.reduce(0) { $0 + $1 * $1 }
        return total > 0 ? 2 * power / total : 0
    }

    /// Records the sink until `seconds` of sound have arrived (the file's size says so).
    func record(seconds: Double) throws -> [Int16] {
        let rec = try AudioProbe.startRecording()
        let want = Int(seconds * 48000) * 2
        let end = Date().addingTimeInterval(seconds + 5)
        while Date() < end, ((try? FileManager.default.attributesOfItem(atPath: rec.1)[.size] as? Int) ?? 0) < want {
            usleep(20_000)
        }
        return AudioProbe.finish(rec)
    }

    func windows(_ probe: ScreenProbe, of p: Process) -> [(id: UInt, g: (x: Int, y: Int, width: Int, height: Int))] {
        probe.windows(className: "mediaview", pid: p.processIdentifier).compactMap { id in probe.geometry(of: id).map { (id, $0) } }
    }

    @Test("Pinned, the first item's tone plays on beside the next one's; muted over its thumbnail, only the next is heard")
    func twoSounds() throws {
        let low = try Fixtures.solidVideo("red", width: 320, height: 180, seconds: 20, tone: 440)
        let high = try Fixtures.solidVideo("blue", width: 320, height: 180, seconds: 20, tone: 880)
        let p = try Run.start(Run.mediaview, [low, high], environment: Run.environment(["XDG_STATE_HOME": state]))
        defer { kill(p.processIdentifier, SIGTERM); Run.wait(p, timeout: 5) }
        let probe = try ScreenProbe()
        var main: UInt?
        let end = Date().addingTimeInterval(10)
        while main == nil && Date() < end {
            usleep(50_000)
            main = windows(probe, of: p).first { $0.g.width > 1000 }?.id
        }
        let window = try #require(main, "no window")
        try xdo(["key", "--window", "\(window)", "P"])
        // The next item fills the screen, and a thumbnail sits in the corner.
        #expect(probe.waitFor(timeout: 5) { $0.matches(200, 300, 0x0000FF) } != nil, "the blue item presented")
        var thumb: (id: UInt, g: (x: Int, y: Int, width: Int, height: Int))?
        let until = Date().addingTimeInterval(5)
        while thumb == nil && Date() < until {
            usleep(50_000)
            thumb = windows(probe, of: p).first { $0.g.width < 1000 && $0.g.width > 100 }
        }
        let t = try #require(thumb, "no pinned thumbnail")
        #expect(t.g.x == 1280 - 12 - 427 && t.g.y == 720 - 12 - 240, "in the corner: \(t.g)")
        #expect(probe.waitFor(timeout: 5) { $0.matches(t.g.x + 100, t.g.y + 120, 0xFF0000) } != nil, "red in the thumbnail")

        let both = try record(seconds: 1.5)
        #expect(share(of: 440, in: both) > 0.1 && share(of: 880, in: both) > 0.1,
                "both tones: 440 \(share(of: 440, in: both)), 880 \(share(of: 880, in: both))")

        try xdo(["key", "--window", "\(t.id)", "m"])
        let muted = try record(seconds: 1.5)
        #expect(share(of: 440, in: muted) < 0.02 && share(of: 880, in: muted) > 0.5,
                "only the presented tone: 440 \(share(of: 440, in: muted)), 880 \(share(of: 880, in: muted))")
    }

    @Test("Two pinned thumbnails stack up from the corner; closing one leaves the other, a click restores it full size")
    func stackCloseRestore() throws {
        let red = try Fixtures.solidVideo("red", width: 320, height: 180, seconds: 20)
        let green = try Fixtures.solidVideo("green", width: 320, height: 180, seconds: 20)
        let blue = try Fixtures.solidVideo("blue", width: 320, height: 180, seconds: 20)
        let p = try Run.start(Run.mediaview, ["--no-audio", red, green, blue],
                              environment: Run.environment(["XDG_STATE_HOME": state]))
        defer { kill(p.processIdentifier, SIGTERM); Run.wait(p, timeout: 5) }
        let probe = try ScreenProbe()
        #expect(probe.waitFor(timeout: 10) { $0.matches(200, 300, 0xFF0000) } != nil, "red first")
        let main = try #require(windows(probe, of: p).first { $0.g.width > 1000 }?.id)
        try xdo(["key", "--window", "\(main)", "P"])
        #expect(probe.waitFor(timeout: 5) { $0.matches(200, 300, 0x008000) } != nil, "green next")
        try xdo(["key", "--window", "\(main)", "P"])
        #expect(probe.waitFor(timeout: 5) { $0.matches(200, 300, 0x0000FF) } != nil, "blue next")
        let x = 1280 - 12 - 427, lowY = 720 - 12 - 240, highY = lowY - 240 - 12
        #expect(probe.waitFor(timeout: 5) { $0.matches(x + 100, lowY + 120, 0xFF0000) && $0.matches(x + 100, highY + 120, 0x008000) } != nil,
                "red in the corner, green stacked above it")
        // Close the green one with its close button (top right, shown on hover).
        try xdo(["mousemove", "\(x + 427 - 6 - 18)", "\(highY + 6 + 18)", "click", "1"])
        #expect(probe.waitFor(timeout: 5) { $0.matches(200, highY + 120, 0x0000FF) } != nil, "the green thumbnail is gone")
        // A click in the middle of the red one brings it back to full size.
        try xdo(["mousemove", "\(x + 200)", "\(lowY + 120)", "click", "1"])
        #expect(probe.waitFor(timeout: 5) { $0.matches(200, 300, 0xFF0000) && $0.matches(x + 200, lowY + 120, 0xFF0000) } != nil,
                "red presented again")
        #expect(windows(probe, of: p).filter { $0.g.width < 1000 }.isEmpty, "no thumbnail left")
    }

    @Test("A video whose sandboxed decoder crashes fails in one line; the pinned thumbnail beside it plays on")
    func crashBesidePinned() throws {
        let dir = try Scratch.directory("pinned-crash")
        let crashing = dir + "/clip worker-crashes-later.mp4"
        try FileManager.default.createSymbolicLink(atPath: crashing,
                                                   withDestinationPath: try Fixtures.solidVideo("green", width: 320, height: 180, seconds: 5))
        let errors = dir + "/stderr"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let p = try Run.start(Run.mediaview, ["--no-audio", "--loop", try Fixtures.colourSeconds(), crashing],
                              environment: Run.environment(["XDG_STATE_HOME": state, "MEDIAVIEW_WORKER_TEST": "1"]),
                              stderr: try FileHandle(forWritingTo: URL(fileURLWithPath: errors)))
        defer { kill(p.processIdentifier, SIGTERM); Run.wait(p, timeout: 5) }
        let probe = try ScreenProbe()
        #expect(probe.waitFor(timeout: 10) { $0.matches(200, 300, 0xFF0000) } != nil, "the colours first")
        let main = try #require(windows(probe, of: p).first { $0.g.width > 1000 }?.id)
        try xdo(["key", "--window", "\(main)", "P"])
        #expect(probe.waitFor(timeout: 10) { $0.matches(200, 300, 0x008000) && $0.matches(1000, 100, 0x008000) } != nil,
                "the crashing video next, full size")
        let line = "mediaview: \(crashing): the decoder stopped: crashed (SIGABRT)\n"
        let deadline = Date().addingTimeInterval(10)
        var said = ""
        while Date() < deadline {
            said = try String(contentsOfFile: errors, encoding: .utf8)
            if !said.isEmpty { break }
            usleep(50_000)
        }
        #expect(said == line, "\(said)")
        // The thumbnail's own decoder is another worker: its colours go on changing, second by second.
        let x = 1280 - 12 - 427 + 200, y = 720 - 12 - 240 + 120
        var seen: Set<UInt32> = []
        _ = probe.waitFor(timeout: 8) { shot in
            for c in Fixtures.secondColours where shot.matches(x, y, c.rgb) { seen.insert(c.rgb) }
            return seen.count >= 3
        }
        #expect(seen.count >= 3, "the pinned thumbnail stopped moving: \(seen)")
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == line, "one line, and nothing after it")
    }
}
