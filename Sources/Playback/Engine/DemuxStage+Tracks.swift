import CFFmpeg
import Subtitles
import Web

/// Audio and subtitle tracks: listing them when the source opens, and decoding subtitle
/// packets as the demux thread meets them.
extension DemuxStage {
    /// The embedded text subtitle streams' decoders, by stream index, each with its track id;
    /// no decoder where the sandboxed worker reading the container decodes them.
    typealias SubtitleStreams = [Int: (id: Int, decoder: SubtitleDecoder?)]

    /// Lists the tracks of `d` (plus the subtitle files to use), loads those files, and
    /// chooses the first subtitle track and `audio` as the sound. Runs on the demux thread
    /// before the source is announced, so the lists never change once it is ready.
    /// Subtitles are looked for only for `kind` video: sound alone shows no text.
    func listTracks(_ d: Demuxer, audio: Int?, kind: MediaInfo.Kind) -> SubtitleStreams {
        var selection = TrackSelection()
        var cues = SubtitleCues()
        var decoders: SubtitleStreams = [:]
        for i in 0..<d.streamCount {
            let st = d.stream(i)
            let par = st.pointee.codecpar.pointee
            guard par.codec_type == AVMEDIA_TYPE_AUDIO, st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else { continue }
            selection.audio.append(track(.audio, id: selection.audio.count + 1, stream: st, index: i, codec: d.codecName(i)))
            if i == audio { selection.audioID = selection.audio.count }
        }
        for path in kind == .video ? subtitlePaths() : [] {
            let name = SourceOptions.displayName(path)
            do {
                let script = try SubtitleFile.load(path, options: options)
                let id = selection.subtitles.count + 1
                selection.subtitles.append(MediaTrack(kind: .subtitle, id: id, language: SubtitleFile.language(of: path, media: url),
                                                      title: nil, codec: script.codec, origin: .external(path: path), isDefault: false))
                cues.setHeader(script.header, for: id)
                for c in script.cues { cues.add(c, to: id) }
            } catch {
                options.onWarning("mediaview: subtitles \(name): \(error.message)")
            }
        }
        for i in 0..<d.streamCount where kind == .video && SubtitleDecoder.isText(d.stream(i)) {
            let decoder: SubtitleDecoder?
            let header: String
            if d.isSandboxed {
                guard let h = d.workerSubtitleHeader(i) else { continue }
                (decoder, header) = (nil, h)
            } else {
                guard let here = try? SubtitleDecoder(stream: d.stream(i)) else { continue }
                (decoder, header) = (here, here.header)
            }
            let id = selection.subtitles.count + 1
            selection.subtitles.append(track(.subtitle, id: id, stream: d.stream(i), index: i, codec: d.codecName(i)))
            cues.setHeader(header, for: id)
            decoders[i] = (id, decoder)
        }
        selection.subtitleID = selection.subtitles.isEmpty ? nil : 1
        // The worker that draws them gets ready while the first frames decode, not on the
        // thread that shows the first line.
        if !selection.subtitles.isEmpty && options.sandbox != .off { DecodeWorkers.shared.startAhead(kind: .subtitles) }
        // A film without sound had a worker started for it with the program.
        if kind == .video && (audio == nil || !options.audio) && options.sandbox != .off { DecodeWorkers.shared.soundWorkerUnneeded() }
        state.withLock {
            $0.tracks = selection
            $0.cues = cues
        }
        return decoders
    }

    /// The subtitle files named by the user, then those found beside a local file.
    private func subtitlePaths() -> [String] {
        var paths = options.subtitleFiles
        if options.findsSubtitleFiles {
            for p in SubtitleFile.beside(url) where !paths.contains(p) { paths.append(p) }
        }
        return paths
    }

    private func track(_ kind: MediaTrack.Kind, id: Int, stream st: UnsafeMutablePointer<AVStream>, index: Int,
                       codec: String) -> MediaTrack {
        MediaTrack(kind: kind, id: id, language: StreamFacts.tag(st.pointee.metadata, "language"),
                   title: StreamFacts.tag(st.pointee.metadata, "title"),
                   codec: codec,
                   origin: .embedded(stream: index), isDefault: st.pointee.disposition & AV_DISPOSITION_DEFAULT != 0)
    }

    /// Decodes a subtitle packet of an embedded track into its events.
    func takeSubtitle(_ packet: Packet, _ decoders: SubtitleStreams) {
        guard let (id, decoder) = decoders[packet.streamIndex], let decoder else { return }
        add(decoder.decode(packet), to: id)
    }

    /// Takes the events the sandboxed worker decoded since the last read.
    func takeWorkerCues(_ d: Demuxer, _ decoders: SubtitleStreams) {
        for (stream, cues) in d.takeCues() {
            guard let id = decoders[stream]?.id else { continue }
            add(cues, to: id)
        }
    }

    private func add(_ found: [SubtitleCue], to id: Int) {
        guard !found.isEmpty else { return }
        state.withLock { for c in found { $0.cues.add(c, to: id) } }
        wake()
    }
}
