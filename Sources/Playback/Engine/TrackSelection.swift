/// The audio and subtitle tracks of one source and which of each plays, shared by the
/// demux thread (which routes the chosen sound stream's packets) and the main thread
/// (which chooses).
struct TrackSelection {
    /// Every sound track, in stream order.
    var audio: [MediaTrack] = []
    /// Every text subtitle track: files first, then the media's own streams.
    var subtitles: [MediaTrack] = []
    /// The sound track that plays, by id; nil without sound.
    var audioID: Int?
    /// The subtitle track shown, by id; nil for none.
    var subtitleID: Int?

    /// The container stream whose packets go to the audio decoder.
    var audioStream: Int? {
        audioID.flatMap { id in audio.first { $0.id == id }?.streamIndex }
    }

    /// The track with `id` of `kind`, if there is one.
    func track(_ kind: MediaTrack.Kind, id: Int) -> MediaTrack? {
        (kind == .audio ? audio : subtitles).first { $0.id == id }
    }
}
