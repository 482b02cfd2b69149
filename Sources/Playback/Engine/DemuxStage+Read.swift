import CFFmpeg
import Glibc
import MediaCore
import Web

/// Reading packets into the decode stages' queues, honouring seeks and idling at the end.
extension DemuxStage {
    /// Where packets go: the video stream, whether sound is decoded (the packets of the
    /// sound track chosen, `TrackSelection.audioStream`, which the user may change), and
    /// the text subtitle streams decoded here or by the sandboxed worker.
    struct Routes {
        var video: Int?
        var audio: Bool
        var subtitles: SubtitleStreams

        /// The streams read with the sound track `audio` chosen.
        func wanted(audio: Int?) -> [Int] { [video, audio].compactMap { $0 } + subtitles.keys }
    }

    /// What one pass of the read loop is at.
    private struct Reading {
        var current = 0
        var atEnd = false
        var anyPacket = false
        var audioStream: Int?
        /// The streams whose packets go anywhere: a sandboxed demuxer sends no others.
        var wanted: [Int] = []
    }

    /// Reads until closed: packets of each generation go out after its start.
    func readLoop(_ d: Demuxer, routes: Routes) {
        var packet = Packet()
        // A sound track switch always comes with a seek (`selectAudio`), so the chosen
        // stream is read again only there, not under the lock for every packet.
        var r = Reading(audioStream: routes.audio ? state.withLock { $0.tracks.audioStream } : nil)
        r.wanted = routes.wanted(audio: r.audioStream)
        let isNetwork = SourceOptions.isNetwork(url)
        while !isClosed {
            if let command = takeCommand() {
                if routes.audio { r.audioStream = state.withLock { $0.tracks.audioStream } }
                r.wanted = routes.wanted(audio: r.audioStream)
                r.current = command.serial
                _ = d.seek(to: command.target)
                r.atEnd = false
                // Never blocks: the queues were emptied for the seek.
                videoPackets.pushForced(.start(serial: command.serial, exact: command.exact, stream: nil))
                // The sound track's parameters go with every start: a track switch is a seek.
                let sound = r.audioStream.flatMap { StreamParameters(d.stream($0)) }
                audioPackets.pushForced(.start(serial: command.serial, exact: command.exact, stream: sound))
            }
            if r.atEnd {
                waitWhileIdle()
                continue
            }
            let result = d.read(into: packet, wanted: r.wanted)
            if d.isSandboxed { takeWorkerCues(d, routes.subtitles) }
            switch result {
            case .packet:
                r.anyPacket = true
                if route(packet, serial: r.current, audioStream: r.audioStream, routes: routes) { packet = Packet() }
                updateBuffered(d, isNetwork: isNetwork)
            case .again:
                usleep(5_000)
            case .endOfFile:
                endStreams(r.current)
                bufferedPermille.store(1000, ordering: .relaxed)
                r.atEnd = true
            case .failed(let e):
                if isClosed { return }
                readFailed(e, d, isNetwork: isNetwork, anyPacket: r.anyPacket)
                endStreams(r.current)
                r.atEnd = true
            }
        }
    }

    /// Sends `packet` where it goes; true when a queue took it (the caller needs a new one).
    private func route(_ packet: Packet, serial s: Int, audioStream: Int?, routes: Routes) -> Bool {
        let idx = packet.streamIndex
        if idx == routes.video {
            videoPackets.push(.packet(packet, serial: s))
            return true
        }
        if idx == audioStream {
            audioPackets.push(.packet(packet, serial: s))
            return true
        }
        if routes.subtitles[idx] != nil { takeSubtitle(packet, routes.subtitles) }
        cff_packet_unref(packet.raw)
        return false
    }

    private func readFailed(_ e: AVError, _ d: Demuxer, isNetwork: Bool, anyPacket: Bool) {
        if isNetwork {
            // A broken download is a failure of the item, not a short file.
            let why = d.ioFailure?.message ?? AVError.describe(e.code)  // CachingIO's words say what the network did
            state.withLock { $0.readError = AVError(code: e.code, message: "\(SourceOptions.displayName(url)): download failed: \(why)") }
        } else if !anyPacket {
            state.withLock { $0.readError = e }
        }
    }

    private func endStreams(_ s: Int) {
        videoPackets.pushForced(.end(serial: s))
        audioPackets.pushForced(.end(serial: s))
    }

    private func updateBuffered(_ d: Demuxer, isNetwork: Bool) {
        guard isNetwork else {
            bufferedPermille.store(1000, ordering: .relaxed)
            return
        }
        if let p = d.byteProgress {
            bufferedPermille.store(Int(Double(p.position) / Double(p.size) * 1000), ordering: .relaxed)
        }
    }
}
