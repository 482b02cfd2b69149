/// What the sound stream does while playback is paused or has ended.
public enum PausedStream: Sendable, Equatable {
    /// Corked: the server holds the stream as paused, the mixer shows it so, and role
    /// policies no longer count it as playing.
    case corked
    /// Kept running: the stream stays open and plays silence once what it held is heard,
    /// so the desktop still counts it as playing.
    case running
}
