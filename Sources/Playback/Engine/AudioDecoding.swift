import CFFmpeg
import MediaCore

/// The audio decode thread's own state and work: frames out of the decoder, resampled to
/// the output's format, cut at an exact seek's target and queued for the server (the
/// output stretches them to the speed as the server takes them). Touched by that thread
/// alone.
final class AudioDecoding: DecodeWork {
    let stage: AudioDecodeStage
    /// The sound track may change while playing: a packet of another stream gets a
    /// decoder of its own, and the output keeps its rate (the resampler converts).
    private(set) var decoder: any SoundDecoding
    var decoding: any PacketDecoding { decoder }
    private var stream: Int?
    private let name: String
    private let kind: MediaInfo.Kind
    private let rate: Int
    private let channels: Int
    /// Writes go here while the server works.
    private var out: AudioOutput?
    private let resampler: Resampler
    private let frame = Frame()
    private var nextPTS = 0.0
    /// The newest generation start met, and where output starts in the one decoding now.
    private var started: (serial: Int, exact: ExactStart?) = (0, nil)
    private var skipSerial: Int?
    private var skipBefore: Double?
    /// Nothing written yet, and a picture to wait for before the first write.
    private var waitsForPicture: Bool

    init(stage: AudioDecodeStage, setup: AudioDecodeStage.Setup) {
        self.stage = stage
        decoder = setup.decoder
        stream = setup.stream
        name = setup.name
        kind = setup.kind
        waitsForPicture = setup.waitsForPicture
        rate = decoder.sampleRate
        channels = decoder.channels
        resampler = Resampler(outRate: rate, outChannels: channels)
    }

    /// Connects to the sound server, with the volume and pause asked for so far.
    func openOutput() {
        guard stage.options.audio else { return }
        var props = AudioOutput.Properties()
        props.mediaName = stage.options.mediaName
        props.role = stage.options.soundRole.mediaRole(for: kind)
        props.whenPaused = stage.options.pausedStream
        do {
            let o = try AudioOutput(sampleRate: rate, channels: channels, properties: props)
            stage.state.withLock { s in
                o.setSpeed(s.speed)
                o.setVolume(s.volume, muted: s.muted)
                if s.paused { o.setPaused(true) }
                s.output = o
            }
            out = o
        } catch {
            AudioWarning.once("mediaview: no sound: \(error.message); playing silently")
            stage.state.withLock { $0.status.failed = true }
        }
    }

    /// A start with another stream than the one decoded: the user switched sound tracks,
    /// and a decoder is made for it from the parameters the demux stage sent.
    func begin(serial: Int, exact: ExactStart?, stream next: StreamParameters?) {
        started = (serial, exact)
        guard let next, next.index != stream else { return }
        do throws(AVError) {
            decoder = try stage.soundDecoder(next, name: name)
            stream = next.index
        } catch {
            stage.options.onWarning("mediaview: cannot play that sound track: \(error.message)")
        }
    }

    /// Writes to the server; false when the player closed.
    private func send(_ p: UnsafeRawPointer, _ n: Int, pts: Double, serial s: Int) -> Bool {
        guard let o = out else { return true }
        if waitsForPicture {
            // A second is more than any first frame should take; past it the sound goes on.
            waitsForPicture = false
            stage.firstPicture.wait(seconds: 1)
        }
        switch o.write(p, bytes: n, pts: pts, serial: s) {
        case .written, .stale: return true
        case .failed:
            if stage.closed.load(ordering: .relaxed) { return false }
            // The server went away mid-play: go on silently on the system clock.
            AudioWarning.once("mediaview: sound server lost; playing silently")
            stage.state.withLock { $0.status.failed = true }
            out = nil
            return true
        }
    }

    func drain(serial s: Int) -> Bool {
        while true {
            switch decoder.receive(into: frame) {
            case .frame:
                if !play(serial: s) { return false }
            case .needsInput, .endOfStream:
                return true
            case .failed:
                if let stopped = decoder.stopped {
                    // The worker decoding the sound is gone: the item ends with its line.
                    stage.stopped.withLock { $0 = stopped }
                    stage.wake()
                    return false
                }
                return true
            }
        }
    }

    /// Plays the frame just decoded; false when the player closed.
    private func play(serial s: Int) -> Bool {
        if s != skipSerial {
            skipSerial = s
            skipBefore = started.serial == s ? started.exact?.time : nil
        }
        var pts = decoder.seconds(frame.raw.pointee.best_effort_timestamp) ?? nextPTS
        let samples = Double(frame.raw.pointee.nb_samples) / Double(max(1, frame.raw.pointee.sample_rate))
        nextPTS = pts + samples
        let end = nextPTS
        stage.state.withLock { $0.status.endPTS = end }
        if let t = skipBefore, nextPTS <= t {
            av_frame_unref(frame.raw)
            return true
        }
        guard out != nil, var bytes = resampler.convert(frame), bytes > 0 else {
            av_frame_unref(frame.raw)
            return true
        }
        av_frame_unref(frame.raw)
        // The frame that holds an exact seek's target starts playing at the target.
        var start = UnsafeRawPointer(resampler.buffer)
        if let t = skipBefore {
            skipBefore = nil
            if t > pts {
                let frameBytes = channels * MemoryLayout<Float>.size
                let cut = min(bytes / frameBytes, Int(((t - pts) * Double(rate)).rounded())) * frameBytes
                start += cut
                bytes -= cut
                pts = t
                if bytes == 0 { return true }
            }
        }
        return send(start, bytes, pts: pts, serial: s)
    }

    func atEnd(serial s: Int) {
        out?.drain()
        stage.state.withLock { $0.status.end = .ended(serial: s) }
        stage.wake()
    }
}
