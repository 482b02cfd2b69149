/// Where the output of an exact seek's generation starts: what decodes before it is
/// decoded (later frames are predicted from it) but not shown or heard.
struct ExactStart: Sendable, Equatable {
    /// Which frame the picture starts with.
    enum Frame: Equatable, Sendable {
        /// The frame on screen at the target: a seek lands where the user asked.
        case atTarget
        /// The last frame that starts before the target: a step back from the frame
        /// shown at the target.
        case before
        /// The first frame that starts after the target: a step forward from the frame
        /// shown at the target.
        case after
    }

    /// The seek generation it belongs to.
    var serial: Int
    /// The target in seconds; the sound starts here.
    var time: Double
    var frame: Frame

    /// Timestamps of neighbouring frames differ by a millisecond at least (1000 fps);
    /// rounding in time bases is far below that.
    private static let tolerance = 0.0005

    /// Whether a decoded frame at `pts` lasting `duration` (0 when unknown) comes before
    /// the start and is not shown.
    func skips(pts: Double, duration: Double) -> Bool {
        switch frame {
        // A frame is still on screen at the target if it ends after it.
        case .atTarget: pts + max(duration, 0.001) <= time
        case .before: pts < time - ExactStart.tolerance
        case .after: pts <= time + ExactStart.tolerance
        }
    }
}
