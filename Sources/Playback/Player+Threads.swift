import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// The demux and decode threads.
extension Player {
    /// Opens the source, describes it, starts the decode threads, then reads packets until
    /// closed, honouring seeks and idling at the end of the file.
    func demuxMain() {
        do {
            if let anim = try WebPAnimation.openIfAnimated(url, maxPixels: options.source.maxPixels) {
                animationMain(anim)
                return
            }
            if let anim = try webAnimatedWebP() {
                animationMain(anim)
                return
            }
        } catch {
            fail(error)
            return
        }
        let d: Demuxer
        do {
            d = try Demuxer(url: url, options: options.source, interrupt: openInterrupt)
        } catch {
            fail(error)
            return
        }
        demuxer = d
        var streams: (video: Int?, audio: Int?, info: MediaInfo)
        do {
            streams = try describe(d)
        } catch {
            fail(error)
            return
        }
        let firstPacket = turnUpright(d, streams: &streams)
        var videoDecoder: Decoder?
        var audioDecoder: Decoder?
        do {
            if let v = streams.video {
                let threads = options.source.decodeThreads > 0 ? options.source.decodeThreads
                    : options.untimed ? 0 : Decoder.realTimeThreads(for: d.stream(v))
                videoDecoder = try Decoder(stream: d.stream(v), threads: threads,
                                           maxPixels: options.source.maxPixels, lowres: lowres(for: streams.info))
            }
            // Sound-only media is decoded even without sound output: its timestamps are
            // what makes it last as long as it should on the system clock.
            if let a = streams.audio, options.audio || streams.info.kind == .audio {
                audioDecoder = try Decoder(stream: d.stream(a), threads: 1, maxPixels: options.source.maxPixels)
            }
        } catch {
            // A broken audio track should not sink a playable picture, but a broken
            // picture with nothing else is a failure.
            if videoDecoder == nil { fail(error); return }
        }
        if let vd = videoDecoder {
            let rotation = streams.info.rotation
            let jpeg = JPEGStill(kind: streams.info.kind, decoder: vd, maxPixels: options.source.maxPixels)
            spawn(name: "mv-video") { [self] in videoDecodeMain(vd, rotation: rotation, jpeg: jpeg) }
        }
        if let ad = audioDecoder {
            spawn(name: "mv-audio") { [self] in audioDecodeMain(ad) }
        }
        shared.withLock {
            $0.phase = .ready(streams.info)
            if videoDecoder == nil { $0.videoEnded = Int.max }
            if audioDecoder == nil { $0.audioEnded = Int.max }
        }
        wake()
        if let p = firstPacket, videoDecoder != nil { videoPackets.push(.packet(p, 0)) }
        readLoop(d, video: videoDecoder == nil ? nil : streams.video, audio: audioDecoder == nil ? nil : streams.audio,
                 isNetwork: SourceOptions.isNetwork(url))
    }

    /// A JPEG photo's one packet is read before anything is announced, for its EXIF
    /// orientation: the size the viewer is told, the reduced-size decode and every frame are
    /// then already upright. The packet is returned for the decoder's queue.
    private func turnUpright(_ d: Demuxer, streams: inout (video: Int?, audio: Int?, info: MediaInfo)) -> Packet? {
        guard streams.info.kind == .image, let v = streams.video,
              d.stream(v).pointee.codecpar.pointee.codec_id == AV_CODEC_ID_MJPEG else { return nil }
        let packet = Packet()
        while !aborted.load(ordering: .relaxed) {
            switch d.read(into: packet) {
            case .packet:
                guard packet.streamIndex == v else { av_packet_unref(packet.raw); continue }
                let p = packet.raw.pointee
                let turn = JPEGOrientation.rotation(ofJPEG: UnsafeRawBufferPointer(start: p.data, count: Int(max(0, p.size))))
                if turn != 0 {
                    var info = streams.info
                    info.rotation = (info.rotation + turn) % 360
                    if turn % 180 != 0 { (info.width, info.height) = (info.height, info.width) }
                    streams.info = info
                }
                return packet
            case .again:
                usleep(5_000)
            case .endOfFile, .failed:
                // The read loop meets the same end or failure and reports it.
                return nil
            }
        }
        return nil
    }

    /// A WebP from the web, fetched whole into the disk cache first: FFmpeg 5.1 cannot
    /// decode an animated one and libwebp wants the whole file, which a picture needs before
    /// it shows anyway. Nil when it is not an animated WebP (or there is no cache): the
    /// demuxer then opens it as usual, from the cached copy without a second download.
    private func webAnimatedWebP() throws(AVError) -> WebPAnimation? {
        guard SourceOptions.isNetwork(url), options.source.cache != nil else { return nil }
        let path = url.split(separator: "?", maxSplits: 1)[0].split(separator: "#", maxSplits: 1)[0]
        guard path.lowercased().hasSuffix(".webp") else { return nil }
        // close() cancels it through the same interrupt as an open.
        let file = try Downloader.run(url: url, options: options.source, interrupt: openInterrupt).get()
        return try WebPAnimation.openIfAnimated("file:" + file, name: Demuxer.displayName(url),
                                                maxPixels: options.source.maxPixels)
    }

    /// How many halvings a still can lose and still cover `options.targetSize` when fitted:
    /// a 6000x4000 photo in a 1280x720 window decodes at 1500x1000.
    func lowres(for info: MediaInfo) -> Int {
        guard info.kind == .image, let t = options.targetSize, t.width > 0, t.height > 0,
              info.width > 0, info.height > 0 else { return 0 }
        let (w, h) = info.rotation % 180 == 0 ? (info.width, info.height) : (info.height, info.width)
        let scale = min(Double(t.width) / Double(w), Double(t.height) / Double(h))
        var l = 0
        while l < 3 && scale * Double(1 << (l + 1)) <= 1 { l += 1 }
        return l
    }

    private func readLoop(_ d: Demuxer, video: Int?, audio: Int?, isNetwork: Bool) {
        var current = 0
        var atEnd = false
        var packet = Packet()
        var anyPacket = false
        while !aborted.load(ordering: .relaxed) {
            if let target = shared.withLock({ s -> Double? in defer { s.pendingSeek = nil }; return s.pendingSeek }) {
                current = serial.load(ordering: .relaxed)
                _ = d.seek(to: target)
                atEnd = false
            }
            if atEnd {
                demuxIdle.lock()
                if shared.withLock({ $0.pendingSeek == nil }) && !aborted.load(ordering: .relaxed) {
                    demuxIdle.wait(seconds: 0.5)
                }
                demuxIdle.unlock()
                continue
            }
            switch d.read(into: packet) {
            case .packet:
                anyPacket = true
                let idx = packet.streamIndex
                if idx == video {
                    videoPackets.push(.packet(packet, current))
                    packet = Packet()
                } else if idx == audio {
                    audioPackets.push(.packet(packet, current))
                    packet = Packet()
                } else {
                    av_packet_unref(packet.raw)
                }
                updateBuffered(d)
            case .again:
                usleep(5_000)
            case .endOfFile:
                endStreams(current)
                bufferedPermille.store(1000, ordering: .relaxed)
                atEnd = true
            case .failed(let e):
                if aborted.load(ordering: .relaxed) { return }
                if isNetwork {
                    // A broken download is a failure of the item, not a short file.
                    let why = d.ioFailure?.message ?? AVError.describe(e.code)  // issue 5: CachingIO's words
                    shared.withLock { $0.readError = AVError(code: e.code, message: "\(Demuxer.displayName(url)): download failed: \(why)") }
                } else if !anyPacket {
                    shared.withLock { $0.readError = e }
                }
                endStreams(current)
                atEnd = true
            }
        }
    }

    /// Plays an animated WebP through libwebp: frames go to the same queue a video
    /// decoder fills; a seek (the viewer's loop) starts it over.
    private func animationMain(_ anim: WebPAnimation) {
        let info = MediaInfo(kind: .animated, duration: nil, width: anim.width, height: anim.height, hasAudio: false,
                             hasCoverArt: false, formatName: "webp", videoCodec: "webp (libwebp)", audioCodec: nil,
                             title: nil, artist: nil, rotation: 0)
        shared.withLock {
            $0.phase = .ready(info)
            $0.audioEnded = Int.max
        }
        bufferedPermille.store(1000, ordering: .relaxed)
        wake()
        var current = serial.load(ordering: .relaxed)
        while !aborted.load(ordering: .relaxed) {
            if shared.withLock({ s -> Bool in defer { s.pendingSeek = nil }; return s.pendingSeek != nil }) {
                anim.rewind()
                current = serial.load(ordering: .relaxed)
            }
            if let f = anim.next() {
                let vf = VideoFrame(frame: f.frame, pts: f.pts, duration: f.duration, serial: current, rotation: 0)
                if !frames.push(.frame(vf)) { return }
                wake()
                continue
            }
            frames.pushForced(.end(current))
            wake()
            demuxIdle.lock()
            while shared.withLock({ $0.pendingSeek == nil }) && !aborted.load(ordering: .relaxed) {
                demuxIdle.wait(seconds: 0.5)
            }
            demuxIdle.unlock()
        }
    }

    private func endStreams(_ s: Int) {
        videoPackets.pushForced(.end(s))
        audioPackets.pushForced(.end(s))
    }

    private func updateBuffered(_ d: Demuxer) {
        guard SourceOptions.isNetwork(url) else {
            bufferedPermille.store(1000, ordering: .relaxed)
            return
        }
        if let p = d.byteProgress {
            bufferedPermille.store(Int(Double(p.position) / Double(p.size) * 1000), ordering: .relaxed)
        }
    }

    private func fail(_ error: AVError) {
        shared.withLock { $0.phase = .failed(error) }
        wake()
    }

    /// Where shown output of generation `s` starts: before an exact seek's target frames and
    /// samples are decoded (later frames are predicted from them) but not passed on.
    func outputStart(for s: Int) -> Double? {
        shared.withLock { st in st.exactSeek.flatMap { $0.serial == s ? $0.time : nil } }
    }

    /// Decodes video packets into frames for the main thread; a JPEG still goes through
    /// `jpeg` (libjpeg-turbo) when given, and on to FFmpeg only if libjpeg declines it.
    func videoDecodeMain(_ decoder: Decoder, rotation: Int, jpeg: JPEGStill? = nil) {
        var frame = Frame()
        func hand(_ picture: Frame, _ s: Int) -> Bool {
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
        var skipSerial = -1
        var skipBefore: Double?
        var lastSkipped: Frame?
        func drain(_ s: Int) -> Bool {
            while true {
                switch decoder.receive(into: frame) {
                case .frame:
                    if s != skipSerial { skipSerial = s; skipBefore = outputStart(for: s); lastSkipped = nil }
                    if let t = skipBefore {
                        let f = frame.raw
                        let pts = decoder.seconds(f.pointee.best_effort_timestamp) ?? t
                        // A frame is still on screen at the target if it ends after it.
                        if pts + max(decoder.seconds(f.pointee.pkt_duration) ?? 0, 0.001) <= t {
                            lastSkipped = frame
                            frame = Frame()
                            continue
                        }
                        skipBefore = nil
                        lastSkipped = nil
                    }
                    let f = frame
                    frame = Frame()
                    if !hand(f, s) { return false }
                case .needsInput, .endOfStream:
                    return true
                case .failed:
                    decodeErrors.add(1, ordering: .relaxed)
                    return true
                }
            }
        }
        var lowPowerApplied = false
        // A push refused here means the player closed; the packet queue is aborted with it,
        // so feed stops at its next pop.
        let own: (Packet, Int) -> Bool = { p, s in
            guard let jpeg, let picture = try? jpeg.decode(p) else { return false }
            _ = hand(picture, s)
            return true
        }
        feed(decoder, from: videoPackets, drain: drain, own: own, beforeSend: {
            let low = lowPower.load(ordering: .relaxed)
            if low != lowPowerApplied {
                // A thumbnail does not show what the deblocking filter smooths.
                decoder.ctx.pointee.skip_loop_filter = low ? AVDISCARD_ALL : AVDISCARD_DEFAULT
                lowPowerApplied = low
            }
        }, atEnd: { s in
            // An exact seek past the last frame (sound longer than the picture) still shows
            // the last picture, as a keyframe seek would.
            if s == skipSerial, let last = lastSkipped {
                lastSkipped = nil
                _ = hand(last, s)
            }
            frames.pushForced(.end(s))
            wake()
        })
    }

    /// Decodes audio, resamples it and writes it to PulseAudio. Without a reachable
    /// server it only keeps track of where the sound would end.
    func audioDecodeMain(_ decoder: Decoder) {
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
        var skipSerial = -1
        var skipBefore: Double?
        func drain(_ s: Int) -> Bool {
            while true {
                switch decoder.receive(into: frame) {
                case .frame:
                    if s != skipSerial { skipSerial = s; skipBefore = outputStart(for: s) }
                    var pts = decoder.seconds(frame.raw.pointee.best_effort_timestamp) ?? nextPTS
                    let samples = Double(frame.raw.pointee.nb_samples) / Double(max(1, frame.raw.pointee.sample_rate))
                    nextPTS = pts + samples
                    shared.withLock { $0.audioEndPTS = nextPTS }
                    if let t = skipBefore, nextPTS <= t {
                        av_frame_unref(frame.raw)
                        continue
                    }
                    guard let o = out, var bytes = resampler.convert(frame), bytes > 0 else {
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
                    switch o.write(start, bytes: bytes, pts: pts, serial: s) {
                    case .written, .stale: break
                    case .failed:
                        if aborted.load(ordering: .relaxed) { return false }
                        // The server went away mid-play: go on silently on the system clock.
                        AudioWarning.once("mediaview: sound server lost; playing silently")
                        shared.withLock { $0.audioFailed = true }
                        out = nil
                    }
                case .needsInput, .endOfStream:
                    return true
                case .failed:
                    decodeErrors.add(1, ordering: .relaxed)
                    return true
                }
            }
        }
        feed(decoder, from: audioPackets, drain: drain, atEnd: { s in
            out?.drain()
            shared.withLock { $0.audioEnded = s }
            wake()
        })
    }

    /// The loop both decode threads run: packets of the current seek generation go to the
    /// decoder (flushed when the generation changes), `drain` takes what comes out, and the
    /// end marker drains the decoder and calls `atEnd`. `own` may decode a packet itself
    /// and return true, and the decoder never sees it. Returns when the queue is aborted
    /// or `drain` says to stop.
    private func feed(_ decoder: Decoder, from queue: BoundedQueue<PacketItem>, drain: (Int) -> Bool,
                      own: (Packet, Int) -> Bool = { _, _ in false },
                      beforeSend: () -> Void = {}, atEnd: (Int) -> Void) {
        var decoderSerial = -1
        while let item = queue.pop() {
            switch item {
            case .packet(let p, let s):
                if s != serial.load(ordering: .relaxed) { continue }
                if s != decoderSerial { decoder.flush(); decoderSerial = s }
                beforeSend()
                if !own(p, s) && decoder.send(p) < 0 { decodeErrors.add(1, ordering: .relaxed) }
                if !drain(s) { return }
            case .end(let s):
                if s != serial.load(ordering: .relaxed) { continue }
                if s != decoderSerial { decoder.flush(); decoderSerial = s }
                _ = decoder.send(nil)
                if !drain(s) { return }
                // Flushed after draining, so the same decoder takes packets again (a loop).
                decoder.flush()
                decoderSerial = -1
                atEnd(s)
            }
        }
    }
}

/// Prints a sound warning once per process, however many items play.
enum AudioWarning {
    private static let said = Mutex(false)

    static func once(_ message: String) {
        let first = said.withLock { done -> Bool in defer { done = true }; return !done }
        if first { StandardError.write(message) }
    }
}
