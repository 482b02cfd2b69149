import CFFmpeg

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
        let v = av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        let a = av_find_best_stream(ctx, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        let video = v >= 0 ? Int(v) : nil
        let audio = a >= 0 ? Int(a) : nil
        guard video != nil || audio != nil else {
            throw AVError(message: "\(Demuxer.displayName(url)): no picture or sound in it")
        }
        var info = MediaInfo(kind: .video, duration: d.duration, width: 0, height: 0, hasAudio: audio != nil,
                             hasCoverArt: false, formatName: d.formatName, videoCodec: nil, audioCodec: nil,
                             title: StreamFacts.tag(ctx.pointee.metadata, "title"),
                             artist: StreamFacts.tag(ctx.pointee.metadata, "artist"), rotation: 0)
        info.album = StreamFacts.tag(ctx.pointee.metadata, "album")
        if ctx.pointee.bit_rate > 0 { info.streams.overallBitRate = Int(ctx.pointee.bit_rate) }
        if let long = ctx.pointee.iformat?.pointee.long_name { info.streams.container = String(cString: long) }
        info.chapters = d.chapters
        if let a = audio {
            let par = d.stream(a).pointee.codecpar!
            info.audioCodec = String(cString: avcodec_get_name(par.pointee.codec_id))
            info.streams.channels = par.pointee.ch_layout.nb_channels > 0 ? Int(par.pointee.ch_layout.nb_channels) : nil
            info.streams.sampleRate = par.pointee.sample_rate > 0 ? Int(par.pointee.sample_rate) : nil
            info.streams.audioBitRate = par.pointee.bit_rate > 0 ? Int(par.pointee.bit_rate) : nil
        }
        if let v = video {
            try describePicture(d.stream(v), hasAudio: audio != nil, into: &info)
        } else {
            info.kind = .audio
        }
        if info.kind == .image || info.kind == .animated { info.hasAudio = false }
        return Streams(video: info.kind == .audio && !info.hasCoverArt ? nil : video,
                       audio: info.kind == .image || info.kind == .animated ? nil : audio, info: info)
    }

    /// The picture stream's size, turn, codec and rate, and from them the kind of media.
    private func describePicture(_ st: UnsafeMutablePointer<AVStream>, hasAudio: Bool,
                                 into info: inout MediaInfo) throws(AVError) {
        let par = st.pointee.codecpar!
        let w = Int(par.pointee.width), h = Int(par.pointee.height)
        if w <= 0 || h <= 0 {
            // FFmpeg before 7.1 parses animated WebP but cannot decode it: say so, rather
            // than blame the file.
            if par.pointee.codec_id == AV_CODEC_ID_WEBP {
                throw AVError(message: "\(Demuxer.displayName(url)): animated WebP cannot be decoded by this FFmpeg "
                              + "(\(String(cString: av_version_info())))")
            }
            throw AVError(message: "\(Demuxer.displayName(url)): the picture has no size (damaged, or too large to decode)")
        }
        if w * h > options.source.maxPixels {
            throw AVError(message: "\(Demuxer.displayName(url)): picture is \(w)x\(h), over the limit of "
                          + "\(options.source.maxPixels) pixels (raise it with --max-pixels)")
        }
        info.videoCodec = String(cString: avcodec_get_name(par.pointee.codec_id))
        let fps = av_q2d(st.pointee.avg_frame_rate)
        info.streams.frameRate = fps.isFinite && fps > 0 ? fps : nil
        info.streams.videoBitRate = par.pointee.bit_rate > 0 ? Int(par.pointee.bit_rate) : nil
        info.rotation = StreamFacts.rotation(of: st)
        info.width = info.rotation % 180 == 0 ? w : h
        info.height = info.rotation % 180 == 0 ? h : w
        info.hasCoverArt = st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        info.kind = DemuxStage.kind(format: info.formatName, hasCover: info.hasCoverArt, hasAudio: hasAudio,
                                    frames: Int(st.pointee.nb_frames))
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
