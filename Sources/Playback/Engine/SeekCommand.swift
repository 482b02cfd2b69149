/// What the main thread asks of the demux stage: go to `target` and start generation
/// `serial` there. A newer command replaces one not yet taken, so a burst of seeks (a drag
/// along the track) costs one demuxer seek.
struct SeekCommand: Sendable, Equatable {
    /// The generation the packets read after the seek belong to.
    var serial: Int
    /// Where the demuxer goes, in seconds; it lands on the keyframe at or before it.
    var target: Double
    /// Where the output of an exact seek starts; nil to play from the keyframe.
    var exact: ExactStart?
}
