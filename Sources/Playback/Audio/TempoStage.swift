import MediaCore

/// The sound's way to the server at any speed: straight through at the
/// media's own pace, through a `TempoFilter` otherwise, with the media time of every piece
/// that comes out (the filter's own timestamps count output samples, not media).
struct TempoStage {
    private let sampleRate: Int
    private let channels: Int
    private var filter: TempoFilter?
    /// The seek generation the filter holds sound of.
    private var serial = -1
    /// The media time of the filter's next output.
    private var nextPTS = 0.0
    /// The speed a filter could not be made for, so the failure is said once.
    private var failedSpeed: PlaybackSpeed?

    /// Pieces come out as (samples, bytes, media time, media seconds per second of sound).
    typealias Sink = (UnsafeRawPointer, Int, Double, Double) -> Void

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Passes `bytes` of interleaved float samples starting at media time `pts` on to
    /// `sink`, at `speed`.
    mutating func pass(_ samples: UnsafeRawPointer, bytes: Int, pts: Double, serial s: Int,
                       speed: PlaybackSpeed, to sink: Sink) {
        if let f = filter, f.speed != speed || serial != s {
            // The sound still in the old filter belongs before this piece: let it out first,
            // unless a seek made it stale.
            if serial == s { finish(sink) }
            filter = nil
        }
        if filter == nil, !speed.isNormal, failedSpeed != speed {
            do throws(AVError) {
                filter = try TempoFilter(speed: speed, sampleRate: sampleRate, channels: channels)
                serial = s
                nextPTS = pts
            } catch {
                failedSpeed = speed
                StandardError.write("mediaview: \(error.message); the sound plays at its own pace")
            }
        }
        guard let f = filter else {
            sink(samples, bytes, pts, 1)
            return
        }
        let factor = f.speed.factor
        let ok = f.process(samples, bytes: bytes) { p, n in
            sink(p, n, nextPTS, factor)
            nextPTS += Double(n / (channels * 4)) / Double(sampleRate) * factor
        }
        if !ok { filter = nil }
    }

    /// Lets out what the filter still holds (at the end of the stream, or before another
    /// speed), and drops the filter.
    mutating func finish(_ sink: Sink) {
        guard let f = filter else { return }
        let factor = f.speed.factor
        f.finish { p, n in
            sink(p, n, nextPTS, factor)
            nextPTS += Double(n / (channels * 4)) / Double(sampleRate) * factor
        }
        filter = nil
    }
}
