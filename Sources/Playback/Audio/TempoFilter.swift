import CRubberBand
import MediaCore

/// Changes the sound's tempo without changing its pitch, with Rubber Band in its real-time
/// mode, on interleaved float samples.
///
/// Rubber Band links only the C++ runtime. libavfilter's `atempo`, used before, brought 31
/// libraries of its own into the viewer and every worker (Vulkan, libplacebo, LAPACK,
/// speech synthesis), all loaded and relocated at each start for this one filter.
///
/// Owns the stretcher (freed in deinit). Used under the sound server main loop's lock.
final class TempoFilter {
    private let state: RubberBandState
    /// The speed the stretcher was made for.
    let speed: PlaybackSpeed
    private let channels: Int
    /// Output samples still to drop: the stretcher's start delay, so what comes out starts
    /// at the first input sample and the stage's media times stay true.
    private var toSkip: Int
    /// One channel's samples each, in (`block` long) and out (`outCapacity` long): Rubber
    /// Band takes channels apart. Owned here, freed in deinit.
    private let planesIn: [UnsafeMutablePointer<Float>?]
    private var planesOut: [UnsafeMutablePointer<Float>?]
    private var outCapacity = 0
    /// Interleaved output handed to the caller, `outCapacity` frames.
    private var interleaved: UnsafeMutablePointer<Float>?

    /// The most frames given to the stretcher at once: its real-time mode is told the
    /// largest block ahead.
    private static let block = 2048

    /// A stretcher for interleaved float sound at `sampleRate` with `channels` (1 or 2).
    init(speed: PlaybackSpeed, sampleRate: Int, channels: Int) throws(AVError) {
        guard speed.factor > 0, speed.factor.isFinite, sampleRate > 0, channels > 0 else {
            throw AVError(message: "cannot make the tempo filter for \(speed)")
        }
        // Real time: sound is fed as it is decoded. Channels together keep a stereo image
        // steady; one thread, as the audio decode thread is the only caller.
        let options = RubberBandOptionProcessRealTime.rawValue | RubberBandOptionChannelsTogether.rawValue
            | RubberBandOptionThreadingNever.rawValue | RubberBandOptionEngineFiner.rawValue
        guard let made = rubberband_new(UInt32(sampleRate), UInt32(channels), Int32(bitPattern: options),
                                        1 / speed.factor, 1) else {
            throw AVError(message: "out of memory making the tempo filter")
        }
        state = made
        self.speed = speed
        self.channels = channels
        rubberband_set_max_process_size(made, UInt32(Self.block))
        planesIn = (0..<channels).map { _ in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: Self.block)
            p.initialize(repeating: 0, count: Self.block)
            return p
        }
        planesOut = Array(repeating: nil, count: channels)
        toSkip = Int(rubberband_get_start_delay(made))
        // Silence before the first sample, as much as the stretcher asks for, so that its
        // output lines up with the input once the start delay is dropped.
        var pad = Int(rubberband_get_preferred_start_pad(made))
        while pad > 0 {
            let n = min(pad, Self.block)
            feed(count: n, final: false)
            pad -= n
        }
    }

    deinit {
        rubberband_delete(state)
        for p in planesIn { p?.deallocate() }
        for p in planesOut { p?.deallocate() }
        interleaved?.deallocate()
    }

    /// Feeds `bytes` of interleaved float samples and hands each piece that comes out to
    /// `take` (pointer and byte count, valid during the call); a part frame at the end is
    /// left out. False only if its own buffers are missing; the stretcher reports no failure.
    func process(_ samples: UnsafeRawPointer, bytes: Int, take: (UnsafeRawPointer, Int) -> Void) -> Bool {
        let frameBytes = channels * MemoryLayout<Float>.size
        let source = samples.assumingMemoryBound(to: Float.self)
        var done = 0
        let count = bytes / frameBytes
        while done < count {
            let n = min(Self.block, count - done)
            for c in 0..<channels {
                guard let plane = planesIn[c] else { return false }
                for i in 0..<n { plane[i] = source[(done + i) * channels + c] }
            }
            feed(count: n, final: false)
            collect(take)
            done += n
        }
        return true
    }

    /// Ends the input and hands out what the stretcher still holds (before a speed change
    /// or at the end, so no sound is lost).
    func finish(take: (UnsafeRawPointer, Int) -> Void) {
        feed(count: 0, final: true)
        collect(take)
    }

    /// Gives the stretcher the first `count` samples of each input plane.
    private func feed(count: Int, final: Bool) {
        let pointers = planesIn.map { UnsafePointer($0) }
        pointers.withUnsafeBufferPointer { p in
            rubberband_process(state, p.baseAddress, UInt32(count), final ? 1 : 0)
        }
    }

    /// Output planes and the interleaved buffer for at least `frames` frames.
    private func reserve(_ frames: Int) {
        guard frames > outCapacity else { return }
        for c in 0..<channels {
            planesOut[c]?.deallocate()
            planesOut[c] = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        }
        interleaved?.deallocate()
        interleaved = UnsafeMutablePointer<Float>.allocate(capacity: frames * channels)
        outCapacity = frames
    }

    /// Takes what the stretcher has ready, drops its start delay, and hands the rest out
    /// interleaved.
    private func collect(_ take: (UnsafeRawPointer, Int) -> Void) {
        while true {
            let ready = Int(rubberband_available(state))
            guard ready > 0 else { return }
            reserve(ready)
            let got = planesOut.withUnsafeBufferPointer { p in
                Int(rubberband_retrieve(state, p.baseAddress, UInt32(ready)))
            }
            guard got > 0 else { return }
            let skipped = min(toSkip, got)
            toSkip -= skipped
            let kept = got - skipped
            guard kept > 0 else { continue }
            guard let out = interleaved else { return }
            for c in 0..<channels {
                guard let plane = planesOut[c] else { return }
                for i in 0..<kept { out[i * channels + c] = plane[skipped + i] }
            }
            take(UnsafeRawPointer(out), kept * channels * MemoryLayout<Float>.size)
        }
    }
}
