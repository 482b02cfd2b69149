import Playback
import Windowing

/// The progress track at the bottom: its band, a bar with rounded ends that thickens under
/// the pointer, time labels large enough to read at a glance, and the time under the
/// pointer in the row above it.
extension MediaSession {
    /// The bar's thickness at rest and under the pointer, at 1x.
    static let trackThickness = (rest: 4, hover: 8)

    /// The band at the bottom that holds the progress track and its time labels.
    func trackRect(in b: Rect) -> Rect {
        OverlayLayout.trackBand(in: b, scale: interfaceScale)
    }

    /// The track's band, its bar between the time labels, and the labels' text.
    func trackLayout(in bounds: Rect) -> (band: Rect, bar: Rect, left: String, right: String, font: FontRenderer)? {
        guard let info, info.isPlayable, settings.shouldShowTrack,
              let font = FontCache.shared.font(family: settings.trackFont, size: interfaceScale.px(15)) else { return nil }
        let band = trackRect(in: bounds)
        let pos = position
        let dur = info.duration ?? 0
        let left = MediaView.formatTime(pos, longest: dur)
        let right = settings.shouldDisplayRemainingTime ? "-" + MediaView.formatTime(max(0, dur - pos), longest: dur)
                                               : MediaView.formatTime(dur, longest: dur)
        // Label widths from the longest text they can hold, so the bar does not jitter.
        let sample = MediaView.formatTime(dur, longest: dur).map { $0.isNumber ? "0" : $0 }
        let lw = font.measure(String(sample)).width, rw = font.measure("-" + String(sample)).width
        let gap = interfaceScale.px(12)
        let bar = Rect(x: band.x + lw + gap, y: band.y, width: max(0, band.width - lw - rw - 2 * gap), height: band.height)
        return (band, bar, left, right, font)
    }

    /// Where on the media a pointer at `x` over the track points, 0...1.
    func trackFraction(atX x: Int, in bounds: Rect) -> Double? {
        guard let l = trackLayout(in: bounds) else { return nil }
        return Indicators.progressFraction(atX: x, in: l.bar, hoverThickness: interfaceScale.px(Self.trackThickness.hover))
    }

    func drawTrack(on canvas: Canvas, info: MediaInfo, state: RenderState, layout: OverlayLayout) {
        guard let l = trackLayout(in: canvas.bounds) else { return }
        if state.pointerNearTrack { trackPreview()?.previewer.prepare() }
        let font = l.font
        let sc = interfaceScale
        let baseline = l.band.y + (l.band.height + font.ascent) / 2 - sc.px(1)
        let shadow = Color.black.withAlpha(fraction: 0.5)
        _ = font.draw(l.left, at: l.band.x, baseline: baseline, color: .white, shadow: shadow, on: canvas)
        _ = font.draw(l.right, at: l.band.maxX - font.measure(l.right).width, baseline: baseline, color: .white,
                      shadow: shadow, on: canvas)
        let dur = info.duration ?? 0
        let progress = dur > 0 ? position / dur : 0
        let thick = (sc.px(Self.trackThickness.rest), sc.px(Self.trackThickness.hover))
        Indicators.drawProgressTrack(on: canvas, in: l.bar, progress: progress, buffered: player?.bufferedFraction ?? 0,
                                     theme: settings.themeColor, hover: state.trackHover,
                                     thickness: thick.0, hoverThickness: thick.1)
        if dur > 0 { Indicators.drawChapterMarks(on: canvas, in: l.bar, starts: info.chapters.map { $0.start / dur }, scale: sc) }
        guard state.trackHover, let x = state.pointerX, dur > 0, let row = layout.hoverRow else { return }
        // The time under the pointer, in the row above the bar, with the chapter it falls in.
        let f = Indicators.progressFraction(atX: x, in: l.bar, hoverThickness: thick.1)
        let text = font.truncated(hoverLabel(atFraction: f), toWidth: max(sc.px(80), canvas.bounds.width / 2))
        let w = font.measure(text).width
        let pad = sc.px(8)
        let bx = max(row.x, min(row.maxX - w - 2 * pad, x - w / 2 - pad))
        let box = Rect(x: bx, y: row.y, width: w + 2 * pad, height: row.height)
        canvas.fillRoundedRect(box, radius: Double(box.height) / 2, color: Color.black.withAlpha(fraction: 0.75))
        _ = font.draw(text, at: bx + pad, baseline: box.y + (box.height + font.ascent) / 2 - sc.px(1), color: .white,
                      on: canvas)
        drawPreview(on: canvas, fraction: f, pointerX: x, above: box.y, maxWidth: canvas.bounds.width / 2,
                    maxHeight: canvas.bounds.height / 2, now: state.now, pointerMovedAt: state.pointerMovedAt)
    }

    /// What the label over the hovered track says: the time there, and the chapter it
    /// falls in when the file names its chapters.
    func hoverLabel(atFraction f: Double) -> String {
        guard let info, let dur = info.duration, dur > 0 else { return "" }
        let text = MediaView.formatTime(f * dur, longest: dur)
        guard let chapter = info.chapters.last(where: { $0.start <= f * dur }), let title = chapter.title,
              !title.isEmpty else { return text }
        return text + " · " + title
    }
}
