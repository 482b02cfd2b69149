/// When the pointer hides over a playing video or anything shown fullscreen, where players
/// hide it so it does not sit on the picture.
public enum PointerHiding: Sendable, Equatable {
    /// With the controls: 2.5 s after the last move, and back with a move, a click or a
    /// pause (the default).
    case withControls
    /// Never: the pointer stays where the user left it (mpv's `--cursor-autohide=no`).
    case never
    /// At once, whenever it may hide (mpv's `--cursor-autohide=always`).
    case always
    /// This many seconds after the last move, whatever the controls do.
    case afterIdle(seconds: Double)
}
