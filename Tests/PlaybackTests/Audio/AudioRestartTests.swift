import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// The sound restarts at once after a flush (a seek), whatever the server's buffer held.
@Suite(.serialized) struct AudioRestartTests {
    /// Writes `seconds` of a quiet 440 Hz tone from `pts` on, from a thread of its own (the
    /// write blocks while the server's buffer is full, as the audio thread's does).
    static func feed(_ out: AudioOutput, from pts: Double, seconds: Double, serial: Int) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let rate = 48000, chunk = 1024
            var buf = [Float](repeating: 0, count: chunk * 2)
            var t = pts
            while t < pts + seconds {
                for i in 0..<chunk {
                    let v = Float(sin(2 * Double.pi * 440 * (t + Double(i) / Double(rate)))) * 0.1
                    buf[2 * i] = v
                    buf[2 * i + 1] = v
                }
                let r = buf.withUnsafeBytes { out.write($0.baseAddress!, bytes: $0.count, pts: t, serial: serial) }
                if r != .written { break }
                t += Double(chunk) / Double(rate)
            }
            done.signal()
        }
        return done
    }

    @Test("After a flush at any moment of the first second, the position moves within 300 ms",
          arguments: [0.0, 0.03, 0.07, 0.11, 0.2, 0.5])
    func restartsAfterFlush(after delay: Double) throws {
        let out = try AudioOutput(sampleRate: 48000, channels: 2, properties: .init())
        defer { out.abort() }
        let first = Self.feed(out, from: 0, seconds: 3, serial: 0)
        usleep(UInt32(delay * 1e6))
        out.flush(serial: 1)
        _ = first.wait(timeout: .now() + 2)
        let t0 = MonotonicClock.seconds()
        let second = Self.feed(out, from: 10, seconds: 2, serial: 1)
        defer { out.abort(); _ = second.wait(timeout: .now() + 2) }
        var moved: Double?
        while MonotonicClock.seconds() - t0 < 1.5 {
            if let p = out.position(), p > 10.02 { moved = MonotonicClock.seconds() - t0; break }
            usleep(5_000)
        }
        let took = try #require(moved, "the sound never restarted after a flush \(delay) s in")
        #expect(took < 0.3, "restarted after \(took) s")
    }
}
