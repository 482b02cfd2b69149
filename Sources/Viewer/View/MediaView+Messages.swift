import MediaCore
import Playback
import Windowing

extension MediaView {
    /// Shows `text` over the media for `seconds`, below the messages already showing; one
    /// about the same thing ("Speed: ...") replaces the earlier one in its place, so
    /// pressing a key repeatedly does not fill the screen.
    public func showMessage(_ text: String, seconds: Double = 2.5) {
        let m = OnScreenMessage(text: text, until: MonotonicClock.seconds() + max(0, seconds))
        if let i = messages.firstIndex(where: { $0.topic == m.topic }) {
            messages[i] = m
        } else {
            messages.append(m)
            if messages.count > OnScreenMessage.mostShown { messages.removeFirst() }
        }
        stage?.setNeedsRedraw()
        wake()
    }

    /// The newest message showing now, if any.
    public var messageText: String? {
        let now = MonotonicClock.seconds()
        return messages.last { $0.until > now }?.text
    }
}
