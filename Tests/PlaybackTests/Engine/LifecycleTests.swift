import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// Closing never hangs, whatever the player is doing, and players leave no threads behind.
@Suite(.serialized) struct LifecycleTests {
    /// Seconds `close()` took.
    func timeClose(_ p: Player) -> Double {
        let t = MonotonicClock.seconds()
        p.close()
        return MonotonicClock.seconds() - t
    }

    @Test("Closing while playing with sound returns at once", arguments: [false, true])
    func closeWhilePlaying(paused: Bool) throws {
        let path = try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 2, tone: 440)
        let d = PlayerDriver(path, audio: true)
        _ = try d.ready()
        _ = d.play(limit: 0.4)
        // Paused, the audio writer is blocked waiting for room in a corked stream.
        if paused { d.player.setPaused(true); _ = d.idle(0.5) }
        let took = timeClose(d.player)
        #expect(took < 0.5, "close took \(took) s")
        // A second close is harmless.
        #expect(timeClose(d.player) < 0.01)
    }

    @Test("Closing while still opening a stalled web source returns at once")
    func closeWhileOpening() throws {
        let root = try TestEnvironment.httpRoot
        let name = "pt-stall-\(getpid()).mp4"
        let dst = root + "/" + name
        try? FileManager.default.removeItem(atPath: dst)
        try FileManager.default.copyItem(atPath: try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 2),
                                         toPath: dst)
        defer { try? FileManager.default.removeItem(atPath: dst) }
        // The server sends the headers and 100 bytes, then nothing for two minutes.
        let url = try TestEnvironment.http + "/stall/100/" + name
        let d = PlayerDriver(url)
        usleep(500_000)
        #expect(d.player.phase == .opening, "phase \(d.player.phase)")
        let took = timeClose(d.player)
        #expect(took < 1.0, "close while opening took \(took) s")
    }

    @Test("Closing right after creating, before anything opened, returns at once")
    func closeImmediately() throws {
        let path = try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 2, tone: 440)
        for _ in 0..<5 {
            let d = PlayerDriver(path, audio: true)
            #expect(timeClose(d.player) < 0.5)
        }
    }

    @Test("50 players opened and closed leave no threads behind")
    func noThreadLeak() throws {
        let video = try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 2, tone: 440)
        let gif = try Fixtures.gif(colors: ["red", "lime", "blue"], delayCentiseconds: 10)
        let still = try Fixtures.solidImage("blue", width: 96, height: 64)
        // Warm up once: libraries (PulseAudio, Foundation) start threads of their own once
        // per process; those are not leaks.
        do {
            let d = PlayerDriver(video, audio: true)
            _ = try d.ready()
            _ = d.play(limit: 0.2)
            d.player.close()
        }
        usleep(200_000)
        let before = ProcSelf.threads
        for i in 0..<50 {
            let path = [video, gif, still][i % 3]
            let d = PlayerDriver(path, audio: true)
            switch i % 5 {
            case 0: break                       // closed while opening
            case 1: _ = d.waitOpened()          // closed just after opening
            default:                            // closed while showing pictures
                _ = d.waitOpened()
                _ = d.play(limit: 0.1)
            }
            d.player.close()
        }
        // Thread exit is asynchronous after join-free shutdowns; give stragglers a moment.
        var after = ProcSelf.threads
        for _ in 0..<20 where after > before + 2 {
            usleep(100_000)
            after = ProcSelf.threads
        }
        #expect(after <= before + 2, "threads: \(before) before, \(after) after 50 players")
    }

    @Test("Memory stays flat over repeated players")
    func noMemoryGrowth() throws {
        let video = try Fixtures.solidVideo("red", width: 320, height: 240, seconds: 1)
        func cycle() {
            let d = PlayerDriver(video) { $0.untimed = true }
            _ = d.waitOpened()
            _ = d.play(limit: 2)
            d.player.close()
        }
        for _ in 0..<5 { cycle() }
        let before = ProcSelf.rssKB
        for _ in 0..<30 { cycle() }
        let grew = ProcSelf.rssKB - before
        // Each player decodes 25 320x240 frames and opens a decoder (a few MB of pools);
        // keeping them all would add well over 30 MB.
        #expect(grew < 20_000, "RSS grew by \(grew) kB over 30 players")
    }
}
