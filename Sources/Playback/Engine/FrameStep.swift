/// What stepping frame by frame while paused remembers between main-loop turns, as mpv's
/// `.` and `,` do.
struct FrameStep {
    /// A step forward was asked for and its frame is not shown yet.
    var forwardPending = false
    /// The timestamp of the frame on screen.
    var shownPTS: Double?
    /// Steps moved the picture away from where the paused sound stands: playing again
    /// starts both at the picture with an exact seek.
    var soundBehind = false
}
