extension AudioOutput {
    /// Properties that make the desktop's mixer show and control the stream properly.
    public struct Properties: Sendable {
        public var applicationName = "mediaview"
        public var iconName = "mediaview"
        public var mediaName = "media"
        /// `video` for video, `music` for audio-only items, `event` for a system sound.
        public var role = "video"
        /// Whether pausing corks the stream or keeps it running silent.
        public var whenPaused = PausedStream.corked
        public init() {}
    }
}
