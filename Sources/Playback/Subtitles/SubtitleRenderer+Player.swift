import Subtitles

extension SubtitleRenderer {
    /// Hands `draw` the images of `player`'s chosen subtitle track due at `seconds`, for a
    /// video shown `width` x `height` pixels large, text `fontScale` times the script's
    /// size. Nothing when no track is chosen.
    public func render(_ player: Player, at seconds: Double, width: Int, height: Int, fontScale: Double = 1,
                       _ draw: (SubtitleBitmap) -> Void) {
        guard let id = player.engine.tracks.subtitleID else { return }
        render(track: id, at: seconds, width: width, height: height, fontScale: fontScale,
               news: { player.engine.subtitleCues(id, from: $0) }, draw)
    }
}
