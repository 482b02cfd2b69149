import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// The sound goes on while the thread that decodes it cannot run: on a busy machine that
/// thread waits for the processor, and the listener must not hear the wait.
@Suite(.serialized) struct SoundAheadTests {
    /// The longest stretch of silence (5 ms blocks) between the first and the last sound.
    static func longestBreak(_ samples: [Int16], rate: Int = 48000) -> Double {
        let block = rate / 200
        let loud = stride(from: 0, to: samples.count - block, by: block).map {
            AudioProbe.rms(samples[$0..<$0 + block]) > 500
        }
        guard let first = loud.firstIndex(of: true), let last = loud.lastIndex(of: true) else { return .infinity }
        var longest = 0, run = 0
        for l in loud[first...last] {
            run = l ? 0 : run + 1
            longest = max(longest, run)
        }
        return Double(longest * block) / Double(rate)
    }

    @Test("A writer that stops for 0.3 s while playing is not heard: the sound has no break")
    func aStalledWriterIsNotHeard() throws {
        let rec = try AudioProbe.startRecording()
        // parec needs a moment to connect; sound played before that would be lost.
        usleep(300_000)
        let out = try AudioOutput(sampleRate: 48000, channels: 2, properties: .init())
        defer { out.abort() }
        #expect(AudioRestartTests.feed(out, from: 0, seconds: 1, serial: 0).wait(timeout: .now() + 5) == .success)
        // The decode thread kept off the processor for longer than the server holds.
        usleep(300_000)
        #expect(AudioRestartTests.feed(out, from: 1, seconds: 0.6, serial: 0).wait(timeout: .now() + 5) == .success)
        out.drain()
        let t0 = MonotonicClock.seconds()
        while !out.isDrained, MonotonicClock.seconds() - t0 < 5 { usleep(10_000) }
        #expect(out.isDrained, "the sound never played out")
        usleep(100_000)
        let samples = AudioProbe.finish(rec)
        let gap = Self.longestBreak(samples)
        #expect(gap < 0.02, "the sound broke off for \(gap) s")
        // All of it was heard: 1.6 s of tone, not less.
        let heard = AudioProbe.loudSeconds(samples)
        #expect(heard > 1.5 && heard < 1.8, "heard \(heard) s of a 1.6 s tone")
    }
}
