import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// The demux thread: opening, describing, and reading packets for the decoders.
extension PlayerEngine {
    /// Opens the source, describes it, starts the decode threads, then reads packets until
    /// closed, honouring seeks and idling at the end of the file.
    func demuxMain() {
        let colour = PictureColour(displayProfile: options.displayProfile, name: Demuxer.displayName(url))
        var memory: MemoryIO?
        do {
            if let picture = try PictureSources.open(file: url, options: options, colour: colour) {
                pictureMain(picture)
                return
            }
            switch try webPicture(colour: colour) {
            case .picture(let picture):
                pictureMain(picture)
                return
            case .bytes(let io):
                memory = io
            case .none:
                break
            }
        } catch {
            fail(error)
            return
        }
        let d: Demuxer
        do {
            d = try Demuxer(url: url, options: options.source, interrupt: openInterrupt, io: memory)
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
        let subtitles = streams.info.isPlayable ? listTracks(d, audio: streams.audio, kind: streams.info.kind) : [:]
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
            let kind = streams.info.kind
            let jpeg = JPEGStill(kind: streams.info.kind, decoder: vd, maxPixels: options.source.maxPixels)
            // Pictures are colour managed; video colours are the video pipeline's. The video
            // thread gets a manager of its own (it keeps the transform it last made).
            let managed = kind == .image || kind == .animated
            spawn(name: "mv-video") { [self] in
                let colour = managed ? PictureColour(displayProfile: options.displayProfile, name: Demuxer.displayName(url)) : nil
                videoDecodeMain(vd, rotation: rotation, kind: kind, jpeg: jpeg, colour: colour)
            }
        }
        if let ad = audioDecoder {
            spawn(name: "mv-audio") { [self] in audioDecodeMain(ad) }
        }
        shared.withLock {
            $0.phase = .ready(streams.info)
            if videoDecoder == nil { $0.videoEnded = .absent }
            if audioDecoder == nil { $0.audioEnded = .absent }
        }
        wake()
        if let p = firstPacket, videoDecoder != nil { videoPackets.push(.packet(p, 0)) }
        readLoop(d, video: videoDecoder == nil ? nil : streams.video, audio: audioDecoder != nil,
                 subtitles: subtitles, isNetwork: SourceOptions.isNetwork(url))
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

    /// `audio`: whether sound is decoded; the packets that go to it are those of the sound
    /// track chosen (`TrackSelection.audioStream`), which the user may change.
    private func readLoop(_ d: Demuxer, video: Int?, audio: Bool, subtitles: SubtitleStreams, isNetwork: Bool) {
        var current = 0
        var atEnd = false
        var packet = Packet()
        var anyPacket = false
        // A sound track switch always comes with a seek (`selectAudio`), so the chosen
        // stream is read again only there, not under the lock for every packet.
        var audioStream = audio ? shared.withLock { $0.tracks.audioStream } : nil
        while !aborted.load(ordering: .relaxed) {
            if let target = shared.withLock({ s -> Double? in defer { s.pendingSeek = nil }; return s.pendingSeek }) {
                if audio { audioStream = shared.withLock { $0.tracks.audioStream } }
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
                } else if idx == audioStream {
                    audioPackets.push(.packet(packet, current))
                    packet = Packet()
                } else if subtitles[idx] != nil {
                    takeSubtitle(packet, subtitles)
                    av_packet_unref(packet.raw)
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
                    let why = d.ioFailure?.message ?? AVError.describe(e.code)  // CachingIO's words say what the network did
                    shared.withLock { $0.readError = AVError(code: e.code, message: "\(Demuxer.displayName(url)): download failed: \(why)") }
                } else if !anyPacket {
                    shared.withLock { $0.readError = e }
                }
                endStreams(current)
                atEnd = true
            }
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

    func fail(_ error: AVError) {
        shared.withLock { $0.phase = .failed(error) }
        wake()
    }
}
