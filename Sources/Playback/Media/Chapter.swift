/// A chapter of a video or audio file: where it starts and what it is called.
public struct Chapter: Sendable, Equatable {
    /// Seconds from the start of the media.
    public var start: Double
    /// The chapter's title, when the file names it.
    public var title: String?

    /// A chapter starting at `start` seconds.
    public init(start: Double, title: String?) {
        self.start = start
        self.title = title
    }
}
