/// What the video decode stage sends the scheduler through its frame queue.
enum FrameItem: Sendable {
    /// A picture to show at its timestamp.
    case frame(VideoFrame)
    /// No more pictures in generation `serial`.
    case end(serial: Int)
}
