import Playback
import Windowing

/// A short line shown over the media for a moment ("Resumed at 12:34", "Saved
/// shot.png"), as mpv's OSD messages: the user sees what a key or the player did without
/// looking at a terminal.
struct OnScreenMessage {
    /// What it says.
    var text: String
    /// When it goes away, on the monotonic clock.
    var until: Double

    /// Draws the message in a dark box at the top left, below the title band's place.
    @MainActor
    func draw(on canvas: Canvas, topBuffer: Int, scale sc: InterfaceScale = .one) {
        guard let font = FontCache.shared.font(family: nil, size: sc.px(18)) else { return }
        let b = canvas.bounds
        let s = font.truncated(text, toWidth: max(sc.px(40), b.width - sc.px(64)))
        let size = font.measure(s)
        let box = Rect(x: sc.px(16), y: topBuffer + sc.px(16), width: size.width + sc.px(24),
                       height: font.ascent + size.descent + sc.px(16))
        canvas.fillRoundedRect(box, radius: Double(sc.px(6)), color: Color.black.withAlpha(fraction: 0.6))
        _ = font.draw(s, at: box.x + sc.px(12), baseline: box.y + sc.px(8) + font.ascent, color: .white, on: canvas)
    }
}
