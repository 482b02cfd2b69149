import CFFmpeg
import Synchronization

/// The decode threads: packets in, frames to the main thread, samples to PulseAudio.
extension PlayerEngine {
    /// Where shown output of generation `s` starts: before an exact seek's target frames and
    /// samples are decoded (later frames are predicted from them) but not passed on.
    func outputStart(for s: Int) -> Double? {
        exactStart(for: s)?.time
    }

    /// The exact seek that generation `s` starts with, if it does.
    func exactStart(for s: Int) -> ExactStart? {
        shared.withLock { st in st.exactSeek.flatMap { $0.serial == s ? $0 : nil } }
    }

    /// Decodes video packets into frames for the main thread; a JPEG still goes through
    /// `jpeg` (libjpeg-turbo) when given, and on to FFmpeg only if libjpeg declines it.
    /// `kind`: a still or an animation with nothing to show fails the item (`PictureCheck`).
    /// `colour`: pictures are converted from their embedded profile to the display's.
    func videoDecodeMain(_ decoder: Decoder, rotation: Int, kind: MediaInfo.Kind, jpeg: JPEGStill? = nil,
                         colour: PictureColour? = nil) {
        var frame = Frame()
        var check = PictureCheck(name: Demuxer.displayName(url), still: kind == .image)
        func hand(_ decoded: Frame, _ s: Int) -> Bool {
            check.shown(decoded, in: s)
            let picture = colour?.manage(decoded) ?? decoded
            let f = picture.raw
            let pts = decoder.seconds(f.pointee.best_effort_timestamp) ?? 0
            let dur = decoder.seconds(f.pointee.pkt_duration) ?? 0
            let vf = VideoFrame(frame: picture, pts: pts, duration: dur, serial: s, rotation: rotation)
            if !frames.push(.frame(vf)) { return false }
            wake()
            return true
        }
        // Exact seeks: the generation whose target is cached, the target, and the newest
        // frame before it, shown after all if the stream ends before the target.
        var skipSerial: Int?
        var skipStart: ExactStart?
        var lastSkipped: Frame?
        func drain(_ s: Int) -> Bool {
            while true {
                switch decoder.receive(into: frame) {
                case .frame:
                    if s != skipSerial { skipSerial = s; skipStart = exactStart(for: s); lastSkipped = nil }
                    if let start = skipStart {
                        let f = frame.raw
                        let pts = decoder.seconds(f.pointee.best_effort_timestamp) ?? start.time
                        if start.skips(pts: pts, duration: decoder.seconds(f.pointee.pkt_duration) ?? 0) {
                            lastSkipped = frame
                            frame = Frame()
                            continue
                        }
                        skipStart = nil
                        // A step back shows the frame before the one that was on screen.
                        if start.frame == .before, let last = lastSkipped, !hand(last, s) { return false }
                        lastSkipped = nil
                    }
                    let f = frame
                    frame = Frame()
                    if !hand(f, s) { return false }
                case .needsInput, .endOfStream:
                    return true
                case .failed(let e):
                    decodeErrors.add(1, ordering: .relaxed)
                    check.damaged(e.code, in: s)
                    return true
                }
            }
        }
        var lowPowerApplied = false
        // Frames dropped since the last packet mean the decoder is behind the clock: the next
        // second of packets skips the deblocking filter (a sixth of H.264's decoding work on
        // 4K), as the thumbnail does, so the picture keeps its frames instead of losing more.
        var dropsSeen = dropped.load(ordering: .relaxed)
        var catchingUp = 0
        let rate = av_q2d(decoder.ctx.pointee.framerate)
        let oneSecond = rate.isFinite && rate >= 1 && rate <= 240 ? Int(rate.rounded()) : 30
        // A push refused here means the player closed; the packet queue is aborted with it,
        // so feed stops at its next pop.
        let own: (Packet, Int) -> Bool = { [self] p, s in
            guard let jpeg else { return false }
            do throws(AVError) {
                _ = hand(try jpeg.decode(p), s)
            } catch where error.code == JPEGStill.truncatedCode {
                // Half a photo with grey below is not the photo: the item fails, saying why.
                shared.withLock { $0.readError = AVError(code: error.code, message: "\(Demuxer.displayName(url)): \(error.message)") }
                frames.pushForced(.end(s))
                wake()
            } catch {
                return false
            }
            return true
        }
        feed({ decoder }, from: videoPackets, drain: drain, own: own, beforeSend: { _ in
            let drops = dropped.load(ordering: .relaxed)
            if drops > dropsSeen {
                dropsSeen = drops
                catchingUp = oneSecond
            }
            if catchingUp > 0 { catchingUp -= 1 }
            let low = lowPower.load(ordering: .relaxed) || catchingUp > 0
            if low != lowPowerApplied {
                // A thumbnail does not show what the deblocking filter smooths.
                decoder.ctx.pointee.skip_loop_filter = low ? AVDISCARD_ALL : AVDISCARD_DEFAULT
                lowPowerApplied = low
            }
        }, sendFailed: { code, s in
            check.damaged(code, in: s)
        }, atEnd: { s in
            // An exact seek past the last frame (sound longer than the picture) still shows
            // the last picture, as a keyframe seek would.
            if s == skipSerial, let last = lastSkipped {
                lastSkipped = nil
                _ = hand(last, s)
            }
            // Set before the end is queued, so the viewer meets the failure, not a finished picture.
            if kind == .image || kind == .animated, let e = check.failure(in: s) {
                shared.withLock { if $0.readError == nil { $0.readError = e } }
            }
            frames.pushForced(.end(s))
            wake()
        })
    }

    /// Decodes audio, resamples it and writes it to PulseAudio. Without a reachable
    /// server it only keeps track of where the sound would end.
    func audioDecodeMain(_ first: Decoder) {
        // The sound track may change while playing: a packet of another stream gets a
        // decoder of its own, and the output keeps its rate (the resampler converts).
        var decoder = first
        var stream = shared.withLock { $0.tracks.audioStream }
        let rate = Int(decoder.ctx.pointee.sample_rate)
        let channels = min(2, max(1, Int(decoder.ctx.pointee.ch_layout.nb_channels)))
        var props = AudioOutput.Properties()
        props.mediaName = options.mediaName
        props.role = info?.kind == .audio ? "music" : "video"
        var out: AudioOutput?
        if options.audio {
            do {
                let o = try AudioOutput(sampleRate: rate, channels: channels, properties: props)
                let v = volumeState.withLock { $0 }
                o.setVolume(v.volume, muted: v.muted)
                if pausedFlag.load(ordering: .relaxed) { o.setPaused(true) }
                out = o
                audio = o
            } catch {
                AudioWarning.once("mediaview: no sound: \(error.message); playing silently")
                shared.withLock { $0.audioFailed = true }
            }
        }
        let resampler = Resampler(outRate: rate, outChannels: channels)
        let frame = Frame()
        var nextPTS = 0.0
        var skipSerial: Int?
        var skipBefore: Double?
        var tempo = TempoStage(sampleRate: rate, channels: channels)
        /// Writes to the server; false when the server went away.
        func send(_ p: UnsafeRawPointer, _ n: Int, pts: Double, serial s: Int, speed: Double) -> Bool {
            guard let o = out else { return true }
            switch o.write(p, bytes: n, pts: pts, serial: s, speed: speed) {
            case .written, .stale: return true
            case .failed:
                if aborted.load(ordering: .relaxed) { return false }
                // The server went away mid-play: go on silently on the system clock.
                AudioWarning.once("mediaview: sound server lost; playing silently")
                shared.withLock { $0.audioFailed = true }
                out = nil
                return true
            }
        }
        func drain(_ s: Int) -> Bool {
            while true {
                switch decoder.receive(into: frame) {
                case .frame:
                    if s != skipSerial { skipSerial = s; skipBefore = outputStart(for: s) }
                    var pts = decoder.seconds(frame.raw.pointee.best_effort_timestamp) ?? nextPTS
                    let samples = Double(frame.raw.pointee.nb_samples) / Double(max(1, frame.raw.pointee.sample_rate))
                    nextPTS = pts + samples
                    let speed = shared.withLock { $0.audioEndPTS = nextPTS; return $0.speed }
                    if let t = skipBefore, nextPTS <= t {
                        av_frame_unref(frame.raw)
                        continue
                    }
                    guard out != nil, var bytes = resampler.convert(frame), bytes > 0 else {
                        av_frame_unref(frame.raw)
                        continue
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
                            if bytes == 0 { continue }
                        }
                    }
                    var alive = true
                    tempo.pass(start, bytes: bytes, pts: pts, serial: s, speed: speed) { p, n, at, factor in
                        if alive { alive = send(p, n, pts: at, serial: s, speed: factor) }
                    }
                    if !alive { return false }
                case .needsInput, .endOfStream:
                    return true
                case .failed:
                    decodeErrors.add(1, ordering: .relaxed)
                    return true
                }
            }
        }
        feed({ decoder }, from: audioPackets, drain: drain, beforeSend: { [self] p in
            guard p.streamIndex != stream, let d = demuxer, p.streamIndex < d.streamCount else { return }
            do throws(AVError) {
                decoder = try Decoder(stream: d.stream(p.streamIndex), threads: 1, maxPixels: options.source.maxPixels)
                stream = p.streamIndex
            } catch {
                options.onWarning("mediaview: cannot play that sound track: \(error.message)")
            }
        }, atEnd: { s in
            tempo.finish { p, n, at, factor in _ = send(p, n, pts: at, serial: s, speed: factor) }
            out?.drain()
            shared.withLock { $0.audioEnded = .ended(serial: s) }
            wake()
        })
    }

    /// The loop both decode threads run: packets of the current seek generation go to the
    /// decoder (flushed when the generation changes), `drain` takes what comes out, and the
    /// end marker drains the decoder and calls `atEnd`. `own` may decode a packet itself
    /// and return true, and the decoder never sees it. Returns when the queue is aborted
    /// or `drain` says to stop.
    private func feed(_ current: () -> Decoder, from queue: BoundedQueue<PacketItem>, drain: (Int) -> Bool,
                      own: (Packet, Int) -> Bool = { _, _ in false }, beforeSend: (Packet) -> Void = { _ in },
                      sendFailed: (Int32, Int) -> Void = { _, _ in }, atEnd: (Int) -> Void) {
        var decoderSerial: Int?
        while let item = queue.pop() {
            switch item {
            case .packet(let p, let s):
                if s != serial.load(ordering: .relaxed) { continue }
                beforeSend(p)
                let decoder = current()
                if s != decoderSerial { decoder.flush(); decoderSerial = s }
                if !own(p, s) {
                    let r = decoder.send(p)
                    // EAGAIN only asks for the output to be taken first, which drain does.
                    if r < 0 && r != cff_averror(EAGAIN) {
                        decodeErrors.add(1, ordering: .relaxed)
                        sendFailed(r, s)
                    }
                }
                if !drain(s) { return }
            case .end(let s):
                if s != serial.load(ordering: .relaxed) { continue }
                let decoder = current()
                if s != decoderSerial { decoder.flush(); decoderSerial = s }
                _ = decoder.send(nil)
                if !drain(s) { return }
                // Flushed after draining, so the same decoder takes packets again (a loop).
                decoder.flush()
                decoderSerial = nil
                atEnd(s)
            }
        }
    }
}

/// Prints a sound warning once per process, however many items play.
enum AudioWarning {
    private static let said = Locked(false)

    static func once(_ message: String) {
        let first = said.withLock { done -> Bool in defer { done = true }; return !done }
        if first { StandardError.write(message) }
    }
}
