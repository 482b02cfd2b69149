import Playback
import Windowing

/// Messages and the info panel: drawn where the overlay layout puts them, below the
/// title and above the controls, so neither covers the other or what the user reads.
extension MediaSession {
    /// Draws `messages` stacked at the left below the title and the info panel's `panel`
    /// lines at the right (or under the messages in a narrow window).
    func drawNotices(_ messages: [OnScreenMessage], panel: [InfoPanel.Line]?, controls: Bool, on canvas: Canvas) {
        let layout = overlayLayout(in: canvas.bounds, controls: controls)
        let sc = interfaceScale
        let sizes = messages.map { $0.size(scale: sc, maxWidth: layout.messageWidth) }
        // The panel takes at most half the window beside messages, all of it alone.
        let panelWidth = messages.isEmpty ? layout.messageWidth : max(sc.px(200), canvas.bounds.width / 2)
        let panelSize = panel.flatMap { InfoPanel.size($0, scale: sc, maxWidth: panelWidth) }
        let placed = layout.place(messages: sizes, panel: panelSize)
        for (m, box) in zip(messages, placed.messages) {
            if let box { m.draw(on: canvas, in: box, scale: sc) }
        }
        if let lines = panel, let box = placed.panel { InfoPanel.draw(lines, on: canvas, in: box, scale: sc) }
    }
}
