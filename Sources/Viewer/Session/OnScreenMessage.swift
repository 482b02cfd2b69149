import Playback
import Windowing

/// A short line shown over the media for a moment ("Resumed at 12:34", "Saved
/// shot.png"), as mpv's OSD messages: the user sees what a key or the player did without
/// looking at a terminal. Several stack, each for its own time.
struct OnScreenMessage {
    /// What it says.
    var text: String
    /// When it goes away, on the monotonic clock.
    var until: Double

    /// The most messages shown at once: older ones give way to newer.
    static let mostShown = 4

    /// What the message is about: the text before its first ": " ("Speed"), else all of
    /// it; a newer message about the same thing takes the older one's place.
    var topic: Substring {
        guard let colon = text.firstIndex(of: ":"), text[colon...].dropFirst().first == " " else { return Substring(text) }
        return text[..<colon]
    }

    /// The font messages are drawn in.
    @MainActor
    static func font(scale sc: InterfaceScale) -> FontRenderer? { FontCache.shared.font(family: nil, size: sc.px(18)) }

    /// The size of the message's box when at most `maxWidth` wide.
    @MainActor
    func size(scale sc: InterfaceScale, maxWidth: Int) -> (width: Int, height: Int) {
        guard let font = Self.font(scale: sc) else { return (0, 0) }
        let s = font.truncated(text, toWidth: max(sc.px(16), maxWidth - sc.px(28)))
        return (font.measure(s).width + sc.px(28), font.lineHeight + sc.px(14))
    }

    /// Draws the message in a dark rounded box filling `box`.
    @MainActor
    func draw(on canvas: Canvas, in box: Rect, scale sc: InterfaceScale = .one) {
        guard let font = Self.font(scale: sc) else { return }
        let s = font.truncated(text, toWidth: max(sc.px(16), box.width - sc.px(28)))
        canvas.fillRoundedRect(box, radius: Double(sc.px(10)), color: Color.black.withAlpha(fraction: 0.7))
        let baseline = box.y + (box.height - font.lineHeight) / 2 + font.ascent
        _ = font.draw(s, at: box.x + sc.px(14), baseline: baseline, color: .white, on: canvas)
    }
}
