import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// A sound that runs dry while it plays (its decoding could not keep up) makes the server
/// hold more from then on; running dry on purpose does not.
@Suite(.serialized) struct UnderrunTests {
    /// Waits up to `seconds` for `condition`, looking every 10 ms.
    func within(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = MonotonicClock.seconds() + seconds
        while MonotonicClock.seconds() < end {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test("After running dry while playing, the server holds more and the sound plays on")
    func growsAfterAnUnderrun() throws {
        let out = try AudioOutput(sampleRate: 48000, channels: 2, properties: .init())
        defer { out.abort() }
        // The server fits what it holds to the sink's latency: 140 ms for the 120 asked here.
        let before = try #require(out.serverBufferSeconds)
        // 0.3 s written, then nothing: the server plays it out and finds the stream empty.
        _ = AudioRestartTests.feed(out, from: 0, seconds: 0.3, serial: 0).wait(timeout: .now() + 3)
        #expect(within(3) { out.underrunCount > 0 }, "the server never found the stream empty")
        #expect(!out.grown, "grown before the sound went on")
        let more = AudioRestartTests.feed(out, from: 0.3, seconds: 1, serial: 0)
        defer { out.abort(); _ = more.wait(timeout: .now() + 3) }
        #expect(within(3) { (out.serverBufferSeconds ?? 0) > before + 0.03 },
                "the server holds \(out.serverBufferSeconds ?? -1) s, as before (\(before) s)")
        #expect(within(3) { (out.position() ?? 0) > 0.5 }, "the sound stopped at \(out.position() ?? -1)")
    }

    @Test("Running dry at the sound's end, then playing again after a flush, keeps the buffer as it was")
    func theEndIsNoUnderrun() throws {
        let out = try AudioOutput(sampleRate: 48000, channels: 2, properties: .init())
        defer { out.abort() }
        let before = try #require(out.serverBufferSeconds)
        _ = AudioRestartTests.feed(out, from: 0, seconds: 0.3, serial: 0).wait(timeout: .now() + 3)
        out.drain()
        #expect(within(3) { out.isDrained && out.underrunCount > 0 }, "the drained stream never ran out")
        // A loop or a seek after the end flushes and plays again.
        out.flush(serial: 1)
        _ = AudioRestartTests.feed(out, from: 5, seconds: 0.3, serial: 1).wait(timeout: .now() + 3)
        #expect(!out.grown)
        #expect(out.serverBufferSeconds == before)
    }

    @Test("A pause that keeps the stream running plays silence without growing the buffer")
    func aRunningPauseIsNoUnderrun() throws {
        var props = AudioOutput.Properties()
        props.whenPaused = .running
        let out = try AudioOutput(sampleRate: 48000, channels: 2, properties: props)
        defer { out.abort() }
        _ = AudioRestartTests.feed(out, from: 0, seconds: 0.3, serial: 0).wait(timeout: .now() + 3)
        out.setPaused(true)
        #expect(within(3) { out.underrunCount > 0 }, "the server never ran out while paused")
        out.setPaused(false)
        _ = AudioRestartTests.feed(out, from: 0.3, seconds: 0.3, serial: 0).wait(timeout: .now() + 3)
        #expect(!out.grown)
    }
}
