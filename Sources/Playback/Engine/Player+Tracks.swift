/// The audio and subtitle tracks of a player, and choosing among them.
extension Player {
    /// The sound tracks, numbered from 1 (empty until open, or for a picture).
    public var audioTracks: [MediaTrack] { engine.tracks.audio }
    /// The text subtitle tracks: files beside the media or named in the options first,
    /// then the media's own; numbered from 1.
    public var subtitleTracks: [MediaTrack] { engine.tracks.subtitles }
    /// The id of the sound track that plays, if any.
    public var audioTrackID: Int? { engine.tracks.audioID }
    /// The id of the subtitle track shown, or nil for none.
    public var subtitleTrackID: Int? { engine.tracks.subtitleID }

    /// Plays sound track `id` from the current position; an unknown id changes nothing.
    public func selectAudioTrack(_ id: Int) { engine.selectAudio(id) }
    /// Shows subtitle track `id`, or none with nil; an unknown id changes nothing.
    public func selectSubtitleTrack(_ id: Int?) { engine.selectSubtitle(id) }
}
