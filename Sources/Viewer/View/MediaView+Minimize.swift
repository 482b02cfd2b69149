import Playback
import Windowing

extension MediaView {
    /// How far the view is along a minimize or dismiss motion, 0...1, for the delegate.
    func reportOffset(_ offset: Double) {
        notify { $0.mediaView(self, didChangeOffset: offset) }
    }
}
