import Glibc
import Playback
import Windowing

/// The overlays drawn over the media: indicators, the close button, the title and the
/// progress track, in the view's theme.
extension MediaSession {
    func drawOverlays(on canvas: Canvas, state: RenderState) {
        let b = canvas.bounds
        let sc = interfaceScale
        let side = max(sc.px(24), min(sc.px(96), min(b.width, b.height) / 6))
        let center = Rect(x: b.width / 2 - side / 2, y: b.height / 2 - side / 2, width: side, height: side)
        if let e = failure {
            if let img = settings.customFailButton {
                Indicators.drawCustomIndicator(img, on: canvas, in: center)
            } else {
                Indicators.drawFailIndicator(on: canvas, in: center, theme: settings.themeColor)
            }
            drawCaption(e.message, on: canvas, below: center)
            return
        }
        guard let p = player else { return }
        if case .opening = p.phase {
            // Playable media pulses its play indicator while it loads; pictures spin.
            let phase = state.now.truncatingRemainder(dividingBy: 1)
            if (content.kind == .video || content.kind == .audio) && !settings.shouldHidePlayButton {
                Indicators.drawPlayIndicator(on: canvas, in: center, theme: settings.themeColor, pulse: 0.5 - 0.5 * cos(phase * 2 * .pi))
            } else {
                Indicators.drawSpinner(on: canvas, in: center, phase: phase)
            }
            return
        }
        guard let info = p.info else { return }
        if p.isStarving {
            // Buffering: the download is behind the picture.
            Indicators.drawSpinner(on: canvas, in: center, phase: state.now.truncatingRemainder(dividingBy: 1))
        }
        if info.kind == .audio && frame == nil && !showsThumbnail {
            if let img = settings.customMusicButton {
                Indicators.drawCustomIndicator(img, on: canvas, in: center)
            } else {
                Indicators.drawMusicIndicator(on: canvas, in: center, theme: settings.themeColor)
            }
        } else if info.isPlayable && p.isPaused && !settings.shouldHidePlayButton {
            if let img = settings.customPlayButton {
                Indicators.drawCustomIndicator(img, on: canvas, in: center)
            } else {
                Indicators.drawPlayIndicator(on: canvas, in: center, theme: settings.themeColor)
            }
        }
        guard state.showControls else { return }
        if let r = closeButtonRect(in: b) { Indicators.drawCloseButton(on: canvas, in: r) }
        drawTitle(on: canvas)
        if info.isPlayable && settings.shouldShowTrack { drawTrack(on: canvas, info: info, state: state) }
    }

    /// Whether the close button shows: it may only hide when a swipe can dismiss instead.
    var showsCloseButton: Bool { !(settings.shouldHideCloseButton && settings.swipeMode != .none) }

    /// The close button, top right below the top buffer; nil when hidden.
    func closeButtonRect(in b: Rect) -> Rect? {
        guard showsCloseButton else { return nil }
        let sc = interfaceScale
        return Rect(x: b.width - sc.px(48), y: settings.topBuffer.pixels + sc.px(12), width: sc.px(36), height: sc.px(36))
    }

    /// The band at the bottom that holds the progress track and its time labels.
    func trackRect(in b: Rect) -> Rect {
        let sc = interfaceScale
        let h = sc.px(40)
        return Rect(x: sc.px(16), y: b.height - h - sc.px(8), width: max(0, b.width - sc.px(32)), height: h)
    }

    /// The track's band, its bar between the time labels, and the labels' text.
    func trackLayout(in bounds: Rect) -> (band: Rect, bar: Rect, left: String, right: String, font: FontRenderer)? {
        guard let info, info.isPlayable, settings.shouldShowTrack,
              let font = FontCache.shared.font(family: settings.trackFont, size: interfaceScale.px(14)) else { return nil }
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
        return Indicators.progressFraction(atX: x, in: l.bar)
    }

    private func drawTrack(on canvas: Canvas, info: MediaInfo, state: RenderState) {
        guard let l = trackLayout(in: canvas.bounds) else { return }
        if state.pointerNearTrack { trackPreview()?.previewer.prepare() }
        let font = l.font
        let sc = interfaceScale
        let baseline = l.band.y + l.band.height / 2 + font.ascent / 2 - 1
        canvas.fillRect(Rect(x: l.band.x - sc.px(8), y: l.band.y, width: l.band.width + sc.px(16), height: l.band.height),
                        color: Color.black.withAlpha(fraction: 0.35))
        _ = font.draw(l.left, at: l.band.x, baseline: baseline, color: .white, on: canvas)
        _ = font.draw(l.right, at: l.band.maxX - font.measure(l.right).width, baseline: baseline, color: .white, on: canvas)
        let dur = info.duration ?? 0
        let progress = dur > 0 ? position / dur : 0
        Indicators.drawProgressTrack(on: canvas, in: l.bar, progress: progress, buffered: player?.bufferedFraction ?? 0,
                                     theme: settings.themeColor, hover: state.trackHover,
                                     thickness: sc.px(3), hoverThickness: sc.px(6))
        if dur > 0 { Indicators.drawChapterMarks(on: canvas, in: l.bar, starts: info.chapters.map { $0.start / dur }, scale: sc) }
        if state.trackHover, let x = state.pointerX, dur > 0 {
            // The time under the pointer, just above the bar, with the chapter it falls in.
            let f = Indicators.progressFraction(atX: x, in: l.bar)
            let text = font.truncated(hoverLabel(atFraction: f), toWidth: max(sc.px(80), canvas.bounds.width / 2))
            let w = font.measure(text).width
            let pad = sc.px(4)
            let bx = max(l.bar.x, min(l.bar.maxX - w - 2 * pad, x - w / 2 - pad))
            let box = Rect(x: bx, y: l.band.y - sc.px(24), width: w + 2 * pad, height: sc.px(20))
            canvas.fillRoundedRect(box, radius: Double(pad), color: Color.black.withAlpha(fraction: 0.7))
            _ = font.draw(text, at: bx + pad, baseline: box.y + sc.px(15), color: .white, on: canvas)
            drawPreview(on: canvas, fraction: f, pointerX: x, above: box.y, maxWidth: canvas.bounds.width / 2,
                        maxHeight: canvas.bounds.height / 2, now: state.now, pointerMovedAt: state.pointerMovedAt)
        }
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

    private func drawTitle(on canvas: Canvas) {
        let (title, details) = MediaView.caption(content, player?.info)
        guard title != nil || details != nil else { return }
        let b = canvas.bounds
        let sc = interfaceScale
        let topBuffer = settings.topBuffer.pixels
        let top = topBuffer + sc.px(12)
        canvas.fillRect(Rect(x: 0, y: topBuffer, width: b.width, height: sc.px(details == nil ? 44 : 68)),
                        color: Color.black.withAlpha(fraction: 0.35))
        if let t = title, let font = FontCache.shared.font(family: nil, size: sc.px(20), bold: true) {
            let s = font.truncated(t, toWidth: b.width - sc.px(80))
            _ = font.draw(s, at: sc.px(16), baseline: top + font.ascent, color: .white, shadow: .black, on: canvas)
        }
        if let d = details, let font = FontCache.shared.font(family: nil, size: sc.px(15)) {
            let s = font.truncated(d, toWidth: b.width - sc.px(80))
            _ = font.draw(s, at: sc.px(16), baseline: top + sc.px(30) + font.ascent, color: Color(rgb: 0xDDDDDD), on: canvas)
        }
    }

    private func drawCaption(_ text: String, on canvas: Canvas, below r: Rect) {
        let sc = interfaceScale
        guard let font = FontCache.shared.font(family: nil, size: sc.px(16)) else { return }
        let s = font.truncated(text, toWidth: canvas.bounds.width - sc.px(40))
        let w = font.measure(s).width
        _ = font.draw(s, at: (canvas.bounds.width - w) / 2, baseline: r.y + r.height + sc.px(28), color: .white,
                      shadow: .black, on: canvas)
    }
}
