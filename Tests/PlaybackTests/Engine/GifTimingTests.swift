import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// Animated GIFs show each frame for its own delay, with browsers' clamp for tiny delays.
@Suite(.serialized) struct GifTimingTests {
    /// A copy of `gif` whose every Graphic Control Extension delay is `centiseconds`, so
    /// a delay ffmpeg's muxer will not write (0) can be tested too.
    static func withDelays(_ gif: String, centiseconds: UInt16, name: String) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gif)))
        var patched = 0
        var i = 0
        // GCE: 21 F9 04 <flags> <delay lo> <delay hi> <transparent index> 00
        while i + 7 < bytes.count {
            if bytes[i] == 0x21, bytes[i + 1] == 0xF9, bytes[i + 2] == 0x04, bytes[i + 7] == 0 {
                bytes[i + 4] = UInt8(centiseconds & 0xFF)
                bytes[i + 5] = UInt8(centiseconds >> 8)
                patched += 1
                i += 8
            } else {
                i += 1
            }
        }
        guard patched >= 3 else { throw DriverError("only \(patched) delays found in \(gif)") }
        return try Fixtures.bytes(name, Data(bytes))
    }

    /// Plays a GIF and returns each frame's colour index (0 red, 1 lime, 2 blue) with the
    /// time since the first frame, plus when it finished.
    func play(_ path: String) throws -> (frames: [(Int, Double)], end: Double?) {
        let d = PlayerDriver(path)
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.kind == .animated)
        let run = d.play(limit: 5, colors: true)
        let t0 = run.frames.first?.at ?? 0
        let ids = run.frames.map { f -> (Int, Double) in
            let c = f.color!
            let id = Colour.near(c, Colour.red, tolerance: 30) ? 0 : Colour.near(c, Colour.green, tolerance: 30) ? 1
                : Colour.near(c, Colour.blue, tolerance: 30) ? 2 : -1
            return (id, f.at - t0)
        }
        return (ids, run.finished ? MonotonicClock.seconds() - t0 : nil)
    }

    /// Checks three frames red, lime, blue shown `step` seconds apart (within 40 ms).
    func expectSequence(_ r: (frames: [(Int, Double)], end: Double?), step: Double) {
        #expect(r.frames.map(\.0) == [0, 1, 2], "frame colours \(r.frames.map(\.0))")
        guard r.frames.count == 3 else { return }
        let gaps = [r.frames[1].1 - r.frames[0].1, r.frames[2].1 - r.frames[1].1]
        for g in gaps { #expect(abs(g - step) <= 0.04, "gaps \(gaps), want \(step)") }
        // The last frame stays for its own delay before the end.
        if let end = r.end {
            #expect(abs(end - 3 * step) <= 0.06, "finished after \(end) s, want \(3 * step)")
        } else {
            Issue.record("the GIF never finished")
        }
    }

    @Test("20 cs frames are shown 200 ms apart")
    func twentyCentiseconds() throws {
        let gif = try Fixtures.gif(colors: ["red", "lime", "blue"], delayCentiseconds: 20)
        expectSequence(try play(gif), step: 0.2)
    }

    @Test("5 cs frames are shown 50 ms apart (small but real delays are kept)")
    func fiveCentiseconds() throws {
        let gif = try Fixtures.gif(colors: ["red", "lime", "blue"], delayCentiseconds: 5)
        expectSequence(try play(gif), step: 0.05)
    }

    @Test("0 cs and 1 cs delays are clamped to 100 ms, as browsers do", arguments: [0, 1])
    func clamped(centiseconds: Int) throws {
        let base = try Fixtures.gif(colors: ["red", "lime", "blue"], delayCentiseconds: 1)
        let gif = try Self.withDelays(base, centiseconds: UInt16(centiseconds), name: "pt-gif-\(centiseconds)cs.gif")
        expectSequence(try play(gif), step: 0.1)
    }
}
