import Viewer

/// The pictures `--play-icon`, `--fail-icon` and `--music-icon` put in place of the
/// built-in indicators, read once for every item.
struct ItemIcons {
    var play: RGBAImage?
    var fail: RGBAImage?
    var music: RGBAImage?

    /// No replacements: the built-in indicators.
    init() {}

    /// Reads the pictures the options name; one that cannot be read is said once.
    @MainActor init(_ look: ProgramOptions.Look) {
        play = look.playIconPath.flatMap { Self.load($0) }
        fail = look.failIconPath.flatMap { Self.load($0) }
        music = look.musicIconPath.flatMap { Self.load($0) }
    }

    /// An indicator image from any picture file; a bad one is reported and the built-in
    /// indicator stays.
    @MainActor static func load(_ path: String) -> RGBAImage? {
        if let image = RGBAImage(contentsOfFile: path) { return image }
        ViewerApp.say("mediaview: icon \(path): cannot read it as a picture; using the built-in one")
        return nil
    }

    /// Puts the replacements on `view`.
    @MainActor func apply(to view: MediaView) {
        view.customPlayButton = play
        view.customFailButton = fail
        view.customMusicButton = music
    }
}
