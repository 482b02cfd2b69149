import CFFmpeg
import Glibc
import MediaCore
import Web

/// Working out what a source is before decoding any of it.
extension DemuxStage {
    /// The streams played and what the source is.
    struct Streams {
        var video: Int?
        var audio: Int?
        var info: MediaInfo
    }

    /// Picks the streams and the kind, and refuses pictures over the pixel budget before a
    /// single frame is allocated.
    func describe(_ d: Demuxer) throws(AVError) -> Streams {
        let ctx = d.ctx
        let video = d.bestStream(AVMEDIA_TYPE_VIDEO)
        let audio = d.bestStream(AVMEDIA_TYPE_AUDIO)
        guard video != nil || audio != nil else {
            throw AVError(message: "\(SourceOptions.displayName(url)): no picture or sound in it")
        }
        var info = MediaInfo(kind: .video, duration: d.duration, width: 0, height: 0, hasAudio: audio != nil,
                             hasCoverArt: false, formatName: d.formatName, videoCodec: nil, audioCodec: nil,
                             title: nil, artist: nil, rotation: 0)
        DemuxStage.readTags(into: &info, container: ctx.pointee.metadata, sound: audio.map { d.stream($0).pointee.metadata })
        if ctx.pointee.bit_rate > 0 { info.streams.overallBitRate = Int(ctx.pointee.bit_rate) }
        if let long = d.longName { info.streams.container = long }
        info.chapters = d.chapters
        if let a = audio {
            let par = d.stream(a).pointee.codecpar!
            info.audioCodec = d.codecName(a)
            info.streams.channels = par.pointee.ch_layout.nb_channels > 0 ? Int(par.pointee.ch_layout.nb_channels) : nil
            info.streams.sampleRate = par.pointee.sample_rate > 0 ? Int(par.pointee.sample_rate) : nil
            info.streams.audioBitRate = par.pointee.bit_rate > 0 ? Int(par.pointee.bit_rate) : nil
        }
        if let v = video {
            try describePicture(d.stream(v), codec: d.codecName(v), hasAudio: audio != nil, into: &info)
        } else {
            info.kind = .audio
        }
        if info.kind == .image || info.kind == .animated { info.hasAudio = false }
        return Streams(video: info.kind == .audio && !info.hasCoverArt ? nil : video,
                       audio: info.kind == .image || info.kind == .animated ? nil : audio, info: info)
    }

    /// The picture stream's size, turn, codec and rate, and from them the kind of media.
    private func describePicture(_ st: UnsafeMutablePointer<AVStream>, codec: String, hasAudio: Bool,
                                 into info: inout MediaInfo) throws(AVError) {
        let par = st.pointee.codecpar!
        let w = Int(par.pointee.width), h = Int(par.pointee.height)
        if w <= 0 || h <= 0 { throw noSizeError(codec: par.pointee.codec_id) }
        info.videoCodec = codec
        let fps = av_q2d(st.pointee.avg_frame_rate)
        info.streams.frameRate = fps.isFinite && fps > 0 ? fps : nil
        info.streams.videoBitRate = par.pointee.bit_rate > 0 ? Int(par.pointee.bit_rate) : nil
        info.rotation = StreamFacts.rotation(of: st)
        info.width = info.rotation % 180 == 0 ? w : h
        info.height = info.rotation % 180 == 0 ? h : w
        info.hasCoverArt = st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        info.kind = DemuxStage.kind(format: info.formatName, hasCover: info.hasCoverArt, hasAudio: hasAudio,
                                    frames: Int(st.pointee.nb_frames))
        // A JPEG still over the budget is shown reduced to fit it (libjpeg scales while it
        // decodes); anything else that large is refused before a single frame is allocated.
        let reducible = info.kind == .image && par.pointee.codec_id == AV_CODEC_ID_MJPEG
            && JPEGStill.budgetReduction(width: w, height: h, maxPixels: options.source.maxPixels) != nil
        if w * h > options.source.maxPixels, !reducible {
            throw AVError(message: "\(SourceOptions.displayName(url)): picture is \(w)x\(h), over the limit of "
                          + "\(options.source.maxPixels) pixels (raise it with --max-pixels)")
        }
    }

    /// Why a picture stream has no size, in the user's terms.
    func noSizeError(codec: AVCodecID) -> AVError {
        let name = SourceOptions.displayName(url)
        // FFmpeg before 7.1 parses animated WebP but cannot decode it: say so, rather than
        // blame the file.
        if codec == AV_CODEC_ID_WEBP {
            return AVError(message: "\(name): animated WebP cannot be decoded by this FFmpeg (\(String(cString: av_version_info())))")
        }
        // A note saved as .jpg reaches here through its name alone: call it what it is.
        if DemuxStage.holdsText(url) { return AVError(message: "\(name): not a picture (the file holds text)") }
        return AVError(message: "\(name): the picture has no size (damaged, or too large to decode)")
    }

    /// Whether a local file's first bytes are all text (no picture format starts so): a
    /// text file given a picture's name.
    static func holdsText(_ url: String) -> Bool {
        guard url.hasPrefix("file:") else { return false }
        let fd = Glibc.open(String(url.dropFirst("file:".count)), O_RDONLY)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var head = [UInt8](repeating: 0, count: 512)
        let n = Glibc.read(fd, &head, head.count)
        guard n > 0 else { return false }
        return head.prefix(n).allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || ($0 >= 32 && $0 != 127) }
    }

    /// Title, artist and album from the container's tags (ID3, MP4 atoms), else the sound
    /// stream's: Ogg keeps its Vorbis comments there.
    static func readTags(into info: inout MediaInfo, container: OpaquePointer?, sound: OpaquePointer??) {
        func read(_ key: String) -> String? { StreamFacts.tag(container, key) ?? sound.flatMap { StreamFacts.tag($0, key) } }
        info.title = read("title")
        info.artist = read("artist")
        info.album = read("album")
    }

    /// What a source with this container, cover and frame count is shown as.
    static func kind(format: String, hasCover: Bool, hasAudio: Bool, frames: Int) -> MediaInfo.Kind {
        if hasCover { return .audio }
        let names = format.split(separator: ",").map(String.init)
        if names.contains("gif") || names.contains("apng") { return .animated }
        if names.contains(where: { $0 == "image2" || $0.hasSuffix("_pipe") }) { return .image }
        return .video
    }
}
