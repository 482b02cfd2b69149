import Playback

/// Sound and subtitle tracks: what the media offers and which play, as mpv's `aid`, `sid`
/// and `sub-visibility`.
extension MediaView {
    /// The media's sound tracks, numbered from 1; empty until it opened, and for pictures.
    public var audioTracks: [MediaTrack] { session?.player?.audioTracks ?? [] }

    /// The subtitle tracks, numbered from 1: subtitle files first (those beside a local
    /// file with its base name, and `playerOptions.subtitleFiles`), then the media's own
    /// text subtitle streams. Empty until the media opened.
    public var subtitleTracks: [MediaTrack] { session?.player?.subtitleTracks ?? [] }

    /// The sound track that plays, if any.
    public var selectedAudioTrack: MediaTrack? {
        guard let p = session?.player, let id = p.audioTrackID else { return nil }
        return p.audioTracks.first { $0.id == id }
    }

    /// The subtitle track chosen, if any (shown while `showsSubtitles` is true). The first
    /// track is chosen when the media opens.
    public var selectedSubtitleTrack: MediaTrack? {
        guard let p = session?.player, let id = p.subtitleTrackID else { return nil }
        return p.subtitleTracks.first { $0.id == id }
    }

    /// Plays sound track `id` from where playback is now; an unknown id changes nothing.
    public func selectAudioTrack(id: Int) {
        session?.player?.selectAudioTrack(id)
        stage?.setNeedsRedraw()
    }

    /// Shows subtitle track `id`, or none with nil; an unknown id changes nothing.
    public func selectSubtitleTrack(id: Int?) {
        session?.player?.selectSubtitleTrack(id)
        stage?.setNeedsRedraw()
        wake()
    }

    /// Chooses the next subtitle track, then none, then the first again, and says on
    /// screen which ("Subtitles: 2/3 English", "Subtitles: off").
    public func cycleSubtitleTrack() {
        let tracks = subtitleTracks
        guard !tracks.isEmpty else { showMessage("Subtitles: none"); return }
        let next = TrackCycle.next(after: selectedSubtitleTrack?.id, count: tracks.count, includesOff: true)
        selectSubtitleTrack(id: next)
        showMessage(TrackCycle.message("Subtitles", next, of: tracks))
    }

    /// Chooses the next sound track (after the last, the first) and says which ("Audio: 2/2 deu").
    public func cycleAudioTrack() {
        let tracks = audioTracks
        guard !tracks.isEmpty else { showMessage("Audio: none"); return }
        let next = TrackCycle.next(after: selectedAudioTrack?.id, count: tracks.count, includesOff: false) ?? 1
        selectAudioTrack(id: next)
        showMessage(TrackCycle.message("Audio", next, of: tracks))
    }

    /// Shows or hides the subtitles and says which.
    public func toggleSubtitles() {
        settings.showsSubtitles.toggle()
        stage?.setNeedsRedraw()
        showMessage(settings.showsSubtitles ? "Subtitles shown" : "Subtitles hidden")
    }
}

/// Stepping through a list of tracks, and the line that says where it stopped.
enum TrackCycle {
    /// The id after `current` in a cycle of `count` tracks numbered from 1; with
    /// `includesOff`, nil ("off") comes after the last track.
    static func next(after current: Int?, count: Int, includesOff: Bool) -> Int? {
        guard count > 0 else { return nil }
        guard let current else { return 1 }
        if current < count { return current + 1 }
        return includesOff ? nil : 1
    }

    /// "Subtitles: 2/3 English", or "Subtitles: off".
    static func message(_ what: String, _ id: Int?, of tracks: [MediaTrack]) -> String {
        guard let id, let t = tracks.first(where: { $0.id == id }) else { return "\(what): off" }
        return "\(what): \(id)/\(tracks.count) \(t.label)"
    }
}
