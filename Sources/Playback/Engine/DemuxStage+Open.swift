import CFFmpeg
import Glibc
import MediaCore
import Web

/// Opening the source on the demux thread: pictures with a decoder of their own, web
/// pictures fetched whole, then FFmpeg's demuxer and the decoders for the stages.
extension DemuxStage {
    /// What opening found: the demuxer, the streams played, and the decoders made for them.
    private struct Source {
        var demuxer: Demuxer
        var streams: Streams
        /// A JPEG photo's one packet, read early for its orientation.
        var firstPacket: Packet?
        var subtitles: SubtitleStreams
        var video: (any PacketDecoding)?
        var audio: (any SoundDecoding)?
    }

    /// The thread body: opens the source, hands what it holds to `start` (which starts the
    /// decode stages), announces it, then reads packets until closed.
    func run(start: (Opened) -> Void) {
        let colour = PictureColour(displayProfile: options.displayProfile, name: SourceOptions.displayName(url))
        var memory: CustomIO?
        do {
            if let picture = try largeStill() {
                playPicture(picture)
                return
            }
            if let picture = try sandboxedStill() {
                playPicture(picture)
                return
            }
            startInProcessFirstLook()
            if let picture = try PictureSources.open(file: url, options: options, colour: colour) {
                playPicture(picture)
                return
            }
            switch try webPicture(colour: colour) {
            case .picture(let picture):
                playPicture(picture)
                return
            case .bytes(let io):
                memory = io
            case .shownInPart:
                return
            case .none:
                switch try sniffedWebStill() {
                case .picture(let picture)?:
                    playPicture(picture)
                    return
                case .stream(let io)?:
                    memory = io
                case .shownInPart?:
                    return
                case nil:
                    break
                }
            }
        } catch {
            fail(error)
            return
        }
        guard let source = open(memory: memory) else { return }
        let info = source.streams.info
        start(Opened(info: info, video: source.video.map { videoSetup($0, info: info) },
                     audio: source.audio.map {
                         AudioDecodeStage.Setup(decoder: $0, stream: source.streams.audio, kind: info.kind,
                                                waitsForPicture: source.video != nil && info.kind == .video,
                                                name: SourceOptions.displayName(url))
                     }))
        state.withLock {
            $0.phase = .ready(info)
            $0.decodes = (source.video != nil, source.audio != nil)
        }
        wake()
        if let p = source.firstPacket, source.video != nil { videoPackets.push(.packet(p, serial: 0)) }
        readLoop(source.demuxer, routes: Routes(video: source.video == nil ? nil : source.streams.video,
                                                audio: source.audio != nil, subtitles: source.subtitles))
    }

    /// Opens the demuxer and the decoders; nil when the item failed (and says so).
    private func open(memory: CustomIO?) -> Source? {
        let d: Demuxer
        var streams: Streams
        do {
            d = try openDemuxer(memory: memory)
            demuxer = d
            streams = try describe(d)
        } catch {
            fail(error)
            return nil
        }
        let firstPacket = turnUpright(d, streams: &streams)
        let subtitles = streams.info.isPlayable ? listTracks(d, audio: streams.audio, kind: streams.info.kind) : [:]
        var source = Source(demuxer: d, streams: streams, firstPacket: firstPacket, subtitles: subtitles)
        do throws(AVError) {
            if let v = streams.video {
                let threads = options.source.decodeThreads > 0 ? options.source.decodeThreads
                    : options.untimed ? 0 : Decoder.realTimeThreads(for: d.stream(v))
                // A JPEG still over the budget is decoded reduced to fit it, by either decoder:
                // FFmpeg's checks the stored size, so it is told the stored size is allowed.
                let stored = streams.info.width * streams.info.height
                let maxPixels = budgetLowres(for: streams.info) > 0 ? stored : options.source.maxPixels
                if let sandboxed = try sandboxedVideo(d.stream(v), kind: streams.info.kind, threads: threads, maxPixels: maxPixels) {
                    source.video = sandboxed
                } else {
                    source.video = try Decoder(stream: d.stream(v), threads: threads, maxPixels: maxPixels,
                                               lowres: max(lowres(for: streams.info), budgetLowres(for: streams.info)))
                }
            }
            // Sound-only media is decoded even without sound output: its timestamps are
            // what makes it last as long as it should on the system clock.
            if let a = streams.audio, options.audio || streams.info.kind == .audio {
                if let sandboxed = try sandboxedSound(d.stream(a), kind: streams.info.kind) {
                    source.audio = sandboxed
                } else {
                    source.audio = try Decoder(stream: d.stream(a), threads: 1, maxPixels: options.source.maxPixels)
                }
            }
        } catch {
            // A broken audio track should not sink a playable picture, but a broken
            // picture with nothing else is a failure.
            if source.video == nil { fail(error); return nil }
        }
        return source
    }

    /// The demuxer: a sandboxed worker's when the sandbox is on and a worker can be had; a
    /// pipe, a playlist whose parts FFmpeg fetches, or the sandbox off is read here.
    private func openDemuxer(memory: CustomIO?) throws(AVError) -> Demuxer {
        switch try SandboxedContainer.open(url: url, memory: memory, options: options, interrupt: openInterrupt,
                                           cancelled: { [self] in isClosed }) {
        case .sandboxed(let container):
            return Demuxer(sandboxed: container, interrupt: openInterrupt)
        case .here(let opened):
            return try Demuxer(url: url, options: options.source, interrupt: openInterrupt, io: opened ?? memory)
        }
    }

    private func videoSetup(_ decoder: any PacketDecoding, info: MediaInfo) -> VideoDecodeStage.Setup {
        // Pictures are colour managed; video colours are the video pipeline's.
        VideoDecodeStage.Setup(decoder: decoder, rotation: info.rotation, kind: info.kind,
                               jpeg: (decoder as? Decoder).flatMap {
                                   JPEGStill(kind: info.kind, decoder: $0, maxPixels: options.source.maxPixels)
                               },
                               managesColour: info.kind == .image || info.kind == .animated)
    }

    /// A JPEG photo's one packet is read before anything is announced, for its EXIF
    /// orientation: the size the viewer is told, the reduced-size decode and every frame are
    /// then already upright. The packet is returned for the decoder's queue.
    private func turnUpright(_ d: Demuxer, streams: inout Streams) -> Packet? {
        guard streams.info.kind == .image, let v = streams.video,
              d.stream(v).pointee.codecpar.pointee.codec_id == AV_CODEC_ID_MJPEG else { return nil }
        let packet = Packet()
        while !isClosed {
            switch d.read(into: packet) {
            case .packet:
                guard packet.streamIndex == v else { cff_packet_unref(packet.raw); continue }
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

    /// How many halvings a JPEG still over the pixel budget must lose to fit it; 0 for
    /// anything within it (`describe` refused the rest).
    func budgetLowres(for info: MediaInfo) -> Int {
        let budget = options.source.maxPixels
        guard info.kind == .image, info.width * info.height > budget else { return 0 }
        return JPEGStill.budgetReduction(width: info.width, height: info.height, maxPixels: budget) ?? 0
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
}
