import Playback

/// What to call an item on screen, for captions such as a fullscreen name and "3 / 11"
/// (with `MediaQueue.position`), and the sound's own tags for its title and details.
extension MediaView {
    /// The item's name as a person knows it: the title the app set, else the title its
    /// tags give (a song's), else the file's name (a web address without its secrets).
    public var displayName: String {
        if let t = title { return t }
        if let t = info?.title { return t }
        return Self.displayName(mediaURL ?? "")
    }

    /// The title drawn over the media: the app's, else for sound its title tag, so an MP3
    /// shows its song over the cover without a `--title`.
    public var captionTitle: String? { Self.caption(content, info).title }

    /// The line under the title: the app's details, else for sound "artist — album" from
    /// its tags.
    public var captionDetails: String? { Self.caption(content, info).details }

    /// The title and details lines for `content` once its media opened as `info`: what the
    /// app set wins; with nothing set, a sound file's tags fill them.
    nonisolated static func caption(_ content: Content, _ info: MediaInfo?) -> (title: String?, details: String?) {
        if content.title != nil || content.details != nil { return (content.title, content.details) }
        guard let info, info.kind == .audio else { return (nil, nil) }
        let parts = [info.artist, info.album].compactMap { $0 }
        return (info.title, parts.isEmpty ? nil : parts.joined(separator: " — "))
    }
}
