import MediaCore

/// Sound decoded ahead of the server, at the media's own pace, and its stretching to the
/// speed on the way out.
///
/// The audio thread fills it; the sound server's requests are answered from it at once,
/// on the server's own thread, without waiting for the audio thread and the decoder's
/// worker to get a turn on the processor. On a busy machine that wait was long enough for
/// the server to run dry, and the listener heard the sound break off. The stretching
/// comes after this buffer, so a change of speed is heard as soon as the server's own
/// buffer has played, however much waits here.
///
/// Owns its sample memory (freed in deinit). Touched only with the sound server's main
/// loop lock held.
final class SoundAhead {
    /// Media time of a run of contiguous samples, oldest first. A run starts where the
    /// decoded sound jumps (a gap in the file, a cut at an exact seek's target).
    private struct Run { var pts: Double; var bytes: Int }

    private let samples: UnsafeMutableRawPointer
    /// Bytes it holds at most.
    let capacity: Int
    private let frameBytes: Int
    private let bytesPerSecond: Double
    private var head = 0
    private(set) var count = 0
    private var runs: [Run] = []
    private var tempo: TempoStage
    /// The speed the sound is stretched to from the next piece on.
    var speed: PlaybackSpeed
    /// The stream's last sample is in: once this empties the server is told to play out.
    var ended = false

    /// Room for `seconds` of sound at the media's pace.
    init(sampleRate: Int, channels: Int, seconds: Double, speed: PlaybackSpeed) {
        frameBytes = channels * MemoryLayout<Float>.size
        bytesPerSecond = Double(sampleRate * frameBytes)
        capacity = max(1, Int(seconds * Double(sampleRate))) * frameBytes
        samples = .allocate(byteCount: capacity, alignment: 16)
        runs.reserveCapacity(64)
        tempo = TempoStage(sampleRate: sampleRate, channels: channels)
        self.speed = speed
    }

    deinit { samples.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Copies in as much of `bytes` (whole frames, starting at media time `pts`) as there is
    /// room for; returns how many bytes it took.
    func append(_ source: UnsafeRawPointer, bytes: Int, pts: Double) -> Int {
        let n = min(bytes, capacity - count) / frameBytes * frameBytes
        guard n > 0 else { return 0 }
        var tail = (head + count) % capacity
        var done = 0
        while done < n {
            let k = min(n - done, capacity - tail)
            (samples + tail).copyMemory(from: source + done, byteCount: k)
            done += k
            tail = (tail + k) % capacity
        }
        count += n
        // Half a sample apart still counts as contiguous: times are rounded by the decoder.
        if let last = runs.last, abs(last.pts + Double(last.bytes) / bytesPerSecond - pts) < 0.5 / bytesPerSecond * Double(frameBytes) {
            runs[runs.count - 1].bytes += n
        } else {
            runs.append(Run(pts: pts, bytes: n))
        }
        return n
    }

    /// Hands out at least `room` bytes of sound at the current speed (less only when it
    /// runs out), each piece with its media time and the media seconds a second of it holds.
    func drain(room: Int, serial: Int, to sink: TempoStage.Sink) {
        var given = 0
        while given < room, let run = runs.first {
            // Through the stretcher `room` output bytes take about `room * speed` input.
            let want = max(frameBytes, Int(Double(room - given) * speed.factor) / frameBytes * frameBytes)
            let n = min(want, run.bytes, capacity - head)
            tempo.pass(samples + head, bytes: n, pts: run.pts, serial: serial, speed: speed) { p, k, at, factor in
                given += k
                sink(p, k, at, factor)
            }
            head = (head + n) % capacity
            count -= n
            if n == run.bytes {
                runs.removeFirst()
            } else {
                runs[0].pts += Double(n) / bytesPerSecond
                runs[0].bytes -= n
            }
        }
    }

    /// Lets out what the stretcher still holds: the end of the stream has been handed out.
    func finish(to sink: TempoStage.Sink) { tempo.finish(sink) }

    /// Drops everything held (a seek), and any end asked for.
    func clear() {
        head = 0
        count = 0
        runs.removeAll(keepingCapacity: true)
        ended = false
    }
}
