import Subtitles

/// Switching audio and subtitle tracks from the main thread; the demux stage lists them
/// and routes the chosen sound track's packets.
extension PlayerEngine {
    /// The tracks and which play.
    var tracks: TrackSelection { demux.state.withLock { $0.tracks } }

    /// Plays sound track `id` from where playback is: the demuxer routes its packets to
    /// the audio thread, which opens a decoder for it, and an exact seek to the current
    /// position drops the old track's queued sound (as mpv's refresh seek does).
    func selectAudio(_ id: Int) {
        let changed = demux.state.withLock { s -> Bool in
            guard s.tracks.track(.audio, id: id) != nil, s.tracks.audioID != id else { return false }
            s.tracks.audioID = id
            return s.decodes.audio
        }
        guard changed, let info, info.isPlayable else { return }
        seek(to: position, exact: true)
    }

    /// Shows subtitle track `id`, or none.
    func selectSubtitle(_ id: Int?) {
        demux.state.withLock { s in
            if let id, s.tracks.track(.subtitle, id: id) == nil { return }
            s.tracks.subtitleID = id
        }
        wake()
    }

    /// Track `id`'s header and the events from `index` on, copied out of the lock.
    func subtitleCues(_ id: Int, from index: Int) -> (header: String, cues: [SubtitleCue]) {
        demux.state.withLock { s in
            let r = s.cues.read(id, from: index)
            return (r.header, Array(r.cues))
        }
    }
}
