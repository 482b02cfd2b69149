import MediaCore
import Playback
import Windowing

extension MediaView {
    /// Shows `text` over the media for `seconds` (replacing a message already showing).
    public func showMessage(_ text: String, seconds: Double = 2.5) {
        message = OnScreenMessage(text: text, until: MonotonicClock.seconds() + max(0, seconds))
        stage?.setNeedsRedraw()
        wake()
    }

    /// The message showing now, if any.
    public var messageText: String? {
        guard let m = message, m.until > MonotonicClock.seconds() else { return nil }
        return m.text
    }
}
