import Glibc
import Windowing

#if canImport(Glibc)
import Glibc
#endif

/// The player's built-in overlay graphics, drawn with `Canvas` shapes.
///
/// Every indicator is vector-drawn into the square centred in the rect it is given, so it
/// stays crisp at any window size and scales with the caller's layout instead of shipping
/// bitmaps per size. Proportions are fractions of that square. Everything blends, so the
/// indicators sit over video without hiding it, and all of them fade with the canvas
/// opacity. Custom images given by the user replace them through `drawCustomIndicator`.
enum Indicators {
    /// Play button: a translucent dark disc with a ring and a right-pointing triangle in the
    /// theme colour.
    ///
    /// - Parameter pulse: 0...1; while media loads the caller animates this and the ring and
    ///   triangle brighten towards white and the ring thickens, which reads as "working".
    static func drawPlayIndicator(on canvas: Canvas, in rect: Rect, theme: Color, pulse: Double = 0) {
        let sq = rect.centeredSquare
        guard sq.width >= 4 else { return }
        let (cx, cy) = sq.center
        let r = Double(sq.width) / 2
        let p = pulse.isNaN ? 0 : min(1, max(0, pulse))
        let ring = max(2, r * (0.08 + 0.04 * p))
        let bright = theme.mixed(with: .white, fraction: 0.45 * p)
        canvas.fillCircle(centerX: cx, centerY: cy, radius: r - ring / 2, color: Color.black.withAlpha(fraction: 0.45))
        canvas.strokeCircle(centerX: cx, centerY: cy, radius: r - ring / 2, lineWidth: ring, color: bright)
        // The triangle's centroid sits slightly right of the disc centre because a
        // mathematically centred triangle looks shifted left.
        canvas.fillTriangle((cx - r * 0.26, cy - r * 0.40), (cx - r * 0.26, cy + r * 0.40),
                            (cx + r * 0.44, cy), color: bright)
    }

    /// Failure: a disc in the theme colour with a white cross.
    static func drawFailIndicator(on canvas: Canvas, in rect: Rect, theme: Color) {
        let sq = rect.centeredSquare
        guard sq.width >= 4 else { return }
        let (cx, cy) = sq.center
        let r = Double(sq.width) / 2
        canvas.fillCircle(centerX: cx, centerY: cy, radius: r, color: theme)
        let arm = r * 0.36, thick = max(1.5, r * 0.14)
        canvas.drawLine(from: (cx - arm, cy - arm), to: (cx + arm, cy + arm), thickness: thick, color: .white)
        canvas.drawLine(from: (cx + arm, cy - arm), to: (cx - arm, cy + arm), thickness: thick, color: .white)
    }

    /// Audio without artwork: two beamed eighth notes in the theme colour.
    static func drawMusicIndicator(on canvas: Canvas, in rect: Rect, theme: Color) {
        let sq = rect.centeredSquare
        guard sq.width >= 8 else { return }
        let s = Double(sq.width), ox = Double(sq.x), oy = Double(sq.y)
        func pt(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (ox + x * s, oy + y * s) }
        let head = s * 0.12, stem = max(1.5, s * 0.055), beam = max(2, s * 0.11)
        // Heads sit low-left of their stems, the second one higher, as engraved notes do.
        let h1 = pt(0.30, 0.76), h2 = pt(0.72, 0.68)
        canvas.fillCircle(centerX: h1.x, centerY: h1.y, radius: head, color: theme)
        canvas.fillCircle(centerX: h2.x, centerY: h2.y, radius: head, color: theme)
        let stemX1 = h1.x + head - stem / 2, stemX2 = h2.x + head - stem / 2
        let top1 = pt(0, 0.22).y, top2 = pt(0, 0.14).y
        canvas.drawLine(from: (stemX1, h1.y), to: (stemX1, top1), thickness: stem, color: theme)
        canvas.drawLine(from: (stemX2, h2.y), to: (stemX2, top2), thickness: stem, color: theme)
        // The beam's round caps end flush with the stems' outer edges and its top with theirs.
        let inset = beam / 2 - stem / 2
        canvas.drawLine(from: (stemX1 + inset, top1 + beam / 2), to: (stemX2 - inset, top2 + beam / 2),
                        thickness: beam, color: theme)
    }

    /// Close button: a small translucent dark disc with a white cross.
    static func drawCloseButton(on canvas: Canvas, in rect: Rect) {
        let sq = rect.centeredSquare
        guard sq.width >= 4 else { return }
        let (cx, cy) = sq.center
        let r = Double(sq.width) / 2
        canvas.fillCircle(centerX: cx, centerY: cy, radius: r, color: Color.black.withAlpha(fraction: 0.5))
        let arm = r * 0.38, thick = max(1.5, r * 0.16)
        canvas.drawLine(from: (cx - arm, cy - arm), to: (cx + arm, cy + arm), thickness: thick, color: .white)
        canvas.drawLine(from: (cx + arm, cy - arm), to: (cx - arm, cy + arm), thickness: thick, color: .white)
    }

    /// Loading spinner: twelve dots on a circle, the brightest at `phase` (0...1, wrapping)
    /// and fading behind it, so advancing the phase over time spins it clockwise.
    static func drawSpinner(on canvas: Canvas, in rect: Rect, phase: Double, color: Color = .white) {
        let sq = rect.centeredSquare
        guard sq.width >= 6 else { return }
        let (cx, cy) = sq.center
        let r = Double(sq.width) / 2
        let dot = r * 0.13, orbit = r - dot
        let count = 12
        let head = (phase.isFinite ? phase - phase.rounded(.down) : 0) * Double(count)
        for i in 0..<count {
            // How far behind the head this dot is, in dots (0 is the head).
            var age = head - Double(i)
            if age < 0 { age += Double(count) }
            let alpha = 1 - 0.85 * age / Double(count)
            let angle = Double(i) / Double(count) * 2 * Double.pi - Double.pi / 2
            canvas.fillCircle(centerX: cx + orbit * cos(angle), centerY: cy + orbit * sin(angle),
                              radius: dot, color: color.withAlpha(fraction: Double(color.a) / 255 * alpha))
        }
    }

    /// Where the progress bar and its knob go inside a track rect.
    ///
    /// The bar is inset by the hover knob's radius on both ends whether or not it is
    /// hovered, so hovering never moves the bar and `fraction(atX:)` stays valid.
    static func progressTrackBar(in rect: Rect, hover: Bool,
                                        thickness: Int = 4, hoverThickness: Int = 8) -> Rect {
        let t = min(rect.height, hover ? hoverThickness : thickness)
        let inset = hoverThickness
        return Rect(x: rect.x + inset, y: rect.y + (rect.height - t) / 2,
                    width: max(0, rect.width - 2 * inset), height: max(0, t))
    }

    /// The playback fraction (0...1) under pixel column `x` of a track drawn in `rect`;
    /// what a click or drag on the track seeks to.
    static func progressFraction(atX x: Int, in rect: Rect, hoverThickness: Int = 8) -> Double {
        let bar = progressTrackBar(in: rect, hover: true, hoverThickness: hoverThickness)
        guard bar.width > 0 else { return 0 }
        return min(1, max(0, (Double(x) + 0.5 - Double(bar.x)) / Double(bar.width)))
    }

    /// The progress track: a translucent white bar, the buffered range lighter over it, the
    /// played range in the theme colour, and on hover a thicker bar with a knob.
    ///
    /// Fractions are clamped to 0...1 (NaN is 0), since durations of live or broken
    /// streams produce nonsense. Labels are the caller's, drawn with `FontRenderer`.
    /// Chapter marks: a short white tick across the track at each chapter's start (given
    /// as fractions of the duration), the first chapter's start at 0 left out.
    static func drawChapterMarks(on canvas: Canvas, in rect: Rect, starts: [Double], scale: InterfaceScale = .one) {
        let bar = progressTrackBar(in: rect, hover: false, thickness: scale.px(4), hoverThickness: scale.px(8))
        guard bar.width > 0 else { return }
        let w = scale.px(2), reach = scale.px(4)
        for f in starts where f.isFinite && f > 0.001 && f < 1 {
            let x = bar.x + Int((Double(bar.width) * f).rounded())
            canvas.fillRect(Rect(x: x - w / 2, y: bar.y - reach, width: w, height: bar.height + 2 * reach), color: Color.white.withAlpha(fraction: 0.9))
        }
    }

    static func drawProgressTrack(on canvas: Canvas, in rect: Rect, progress: Double, buffered: Double,
                                         theme: Color, hover: Bool,
                                         thickness: Int = 4, hoverThickness: Int = 8) {
        let bar = progressTrackBar(in: rect, hover: hover, thickness: thickness, hoverThickness: hoverThickness)
        guard bar.width > 0, bar.height > 0 else { return }
        func clamp(_ f: Double) -> Double { f.isNaN ? 0 : min(1, max(0, f)) }
        func part(_ f: Double) -> Rect {
            Rect(x: bar.x, y: bar.y, width: Int((Double(bar.width) * clamp(f)).rounded()), height: bar.height)
        }
        let radius = Double(bar.height) / 2
        canvas.fillRoundedRect(bar, radius: radius, color: Color.white.withAlpha(fraction: 0.25))
        canvas.fillRoundedRect(part(buffered), radius: radius, color: Color.white.withAlpha(fraction: 0.35))
        let played = part(progress)
        canvas.fillRoundedRect(played, radius: radius, color: theme)
        if hover {
            let knob = Double(hoverThickness)
            canvas.fillCircle(centerX: Double(played.maxX), centerY: Double(bar.y) + radius,
                              radius: knob, color: theme)
            canvas.fillCircle(centerX: Double(played.maxX), centerY: Double(bar.y) + radius,
                              radius: knob * 0.4, color: .white)
        }
    }

    /// A user-supplied indicator image, aspect-fitted and centred in `rect`.
    static func drawCustomIndicator(_ image: RGBAImage, on canvas: Canvas, in rect: Rect, opacity: Double = 1) {
        canvas.blit(image: image, in: Canvas.aspectFit(image, in: rect), opacity: opacity)
    }
}
