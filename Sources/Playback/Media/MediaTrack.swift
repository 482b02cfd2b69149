/// One audio or subtitle track a user can choose: a stream inside the media, or a
/// subtitle file beside it.
///
/// Tracks are numbered from 1 within their kind, as mpv numbers them (`aid`, `sid`), in
/// the order the player lists them: subtitle files first, then the media's own streams.
public struct MediaTrack: Sendable, Equatable, Identifiable {
    /// Sound or subtitles.
    public enum Kind: String, Sendable {
        /// A sound track.
        case audio
        /// A text subtitle track.
        case subtitle
    }

    /// Where the track comes from.
    public enum Origin: Sendable, Equatable {
        /// Stream `index` of the media's container.
        case embedded(stream: Int)
        /// A subtitle file, found beside the media or named by the user.
        case external(path: String)
    }

    /// Sound or subtitles.
    public var kind: Kind
    /// The track's number within its kind, from 1.
    public var id: Int
    /// The language the container or the file name says (`eng`, `deu`, `en`), if any.
    public var language: String?
    /// The track's own title, if the container names it.
    public var title: String?
    /// The codec's short name (`subrip`, `ass`, `mov_text`, `aac`).
    public var codec: String
    /// Where the track comes from.
    public var origin: Origin
    /// The container marks it as the one to play by default.
    public var isDefault: Bool

    /// Whether the track is a file of its own rather than part of the media.
    public var isExternal: Bool {
        if case .external = origin { return true }
        return false
    }

    /// What the user reads on screen: the title, else the language, else the file name or codec.
    public var label: String {
        if let title, !title.isEmpty { return title }
        if let language, !language.isEmpty { return language }
        if case .external(let path) = origin { return path.split(separator: "/").last.map(String.init) ?? path }
        return codec
    }

    /// The stream index inside the media, for an embedded track.
    public var streamIndex: Int? {
        if case .embedded(let s) = origin { return s }
        return nil
    }
}
