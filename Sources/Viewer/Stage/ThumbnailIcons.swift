import Windowing

/// The thumbnail's own icons, vector-drawn so they stay crisp at every size: the skip
/// buttons, the speaker and the volume slider.
@MainActor
enum ThumbnailIcons {
    /// A dark disc with "-10" or "+10" and a small arrowhead pointing the way it jumps.
    static func drawSkip(on canvas: Canvas, in rect: Rect, seconds: Double, scale: InterfaceScale) {
        let sq = rect.centeredSquare
        guard sq.width >= 8 else { return }
        let (cx, cy) = sq.center
        let r = Double(sq.width) / 2
        canvas.fillCircle(centerX: cx, centerY: cy, radius: r, color: Color.black.withAlpha(fraction: 0.5))
        let forward = seconds > 0
        guard let font = FontCache.shared.font(family: nil, size: max(scale.px(9), Int(r * 0.75)), bold: true) else { return }
        let text = String(Int(abs(seconds)))
        let w = font.measure(text).width
        _ = font.draw(text, at: Int(cx) - w / 2, baseline: Int(cy) + font.ascent / 2 + Int(r * 0.1), color: .white, on: canvas)
        // The arrowhead sits on the ring above the number, pointing the way of the jump.
        let ay = cy - r * 0.55, d = forward ? 1.0 : -1.0, s = r * 0.22
        canvas.fillTriangle((cx + d * s * 1.4, ay), (cx - d * s * 0.4, ay - s), (cx - d * s * 0.4, ay + s), color: .white)
        canvas.drawLine(from: (cx - d * s * 1.6, ay), to: (cx - d * s * 0.2, ay), thickness: max(1.5, r * 0.1), color: .white)
    }

    /// A speaker with one to three waves for the volume, or a cross when muted.
    static func drawSpeaker(on canvas: Canvas, in rect: Rect, volume: Double, muted: Bool) {
        let sq = rect.centeredSquare
        guard sq.width >= 8 else { return }
        let (cx, cy) = sq.center
        let r = Double(sq.width) / 2
        canvas.fillCircle(centerX: cx, centerY: cy, radius: r, color: Color.black.withAlpha(fraction: 0.5))
        let u = r * 0.16, left = cx - r * 0.55
        canvas.fillRect(Rect(x: Int(left), y: Int(cy - u * 1.3), width: Int(u * 1.8), height: Int(u * 2.6)), color: .white)
        canvas.fillTriangle((left + u * 1.2, cy - u * 1.3), (left + u * 4, cy - u * 3.4), (left + u * 4, cy + u * 3.4),
                            color: .white)
        canvas.fillTriangle((left + u * 1.2, cy - u * 1.3), (left + u * 4, cy + u * 3.4), (left + u * 1.2, cy + u * 1.3),
                            color: .white)
        let t = max(1.5, r * 0.1), x0 = left + u * 5
        if muted || volume <= 0 {
            canvas.drawLine(from: (x0, cy - u * 1.5), to: (x0 + u * 3, cy + u * 1.5), thickness: t, color: .white)
            canvas.drawLine(from: (x0, cy + u * 1.5), to: (x0 + u * 3, cy - u * 1.5), thickness: t, color: .white)
            return
        }
        // Waves: short vertical strokes growing outwards, one per third of the volume.
        let waves = volume > 0.66 ? 3 : volume > 0.33 ? 2 : 1
        for i in 0..<waves {
            let x = x0 + Double(i) * u * 1.4, h = u * (1.2 + Double(i) * 0.9)
            canvas.drawLine(from: (x, cy - h), to: (x, cy + h), thickness: t, color: .white)
        }
    }

    /// A slider: a rounded line, the part up to `value` in the theme colour, and a knob.
    static func drawSlider(on canvas: Canvas, in rect: Rect, value: Double, theme: Color, scale: InterfaceScale) {
        guard rect.width > 4 else { return }
        let h = scale.px(4)
        let line = Rect(x: rect.x, y: rect.y + (rect.height - h) / 2, width: rect.width, height: h)
        let v = value.isNaN ? 0 : max(0, min(1, value))
        canvas.fillRoundedRect(line, radius: Double(h) / 2, color: Color.white.withAlpha(fraction: 0.35))
        let filled = Rect(x: line.x, y: line.y, width: Int(Double(line.width) * v), height: h)
        canvas.fillRoundedRect(filled, radius: Double(h) / 2, color: theme)
        canvas.fillCircle(centerX: Double(filled.maxX), centerY: Double(line.y) + Double(h) / 2,
                          radius: Double(scale.px(6)), color: .white)
    }
}
