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
            if let from = loadingIndicatorFrom, state.now < from { return }
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
        let layout = overlayLayout(in: b, controls: true)
        drawShades(layout, on: canvas)
        if let r = layout.closeButton { Indicators.drawCloseButton(on: canvas, in: r) }
        drawTitle(on: canvas, in: layout)
        if info.isPlayable && settings.shouldShowTrack { drawTrack(on: canvas, info: info, state: state, layout: layout) }
    }

    /// Whether the close button shows: it may only hide when a swipe can dismiss instead.
    var showsCloseButton: Bool { !(settings.shouldHideCloseButton && settings.swipeMode != .none) }

    /// Where every overlay goes in `b`, with the controls shown or hidden.
    func overlayLayout(in b: Rect, controls: Bool) -> OverlayLayout {
        let caption = MediaView.caption(content, player?.info)
        let lines = (caption.title == nil ? 0 : 1) + (caption.details == nil ? 0 : 1)
        let track = info?.isPlayable == true && settings.shouldShowTrack
        return OverlayLayout(bounds: b, scale: interfaceScale, topBuffer: settings.topBuffer.pixels,
                             content: .init(titleLines: lines, controls: controls, track: track,
                                            closeButton: showsCloseButton))
    }

    /// The close button, top right below the top buffer; nil when hidden.
    func closeButtonRect(in b: Rect) -> Rect? { overlayLayout(in: b, controls: true).closeButton }

    /// Soft shading behind the title and the controls, darkest at the window's edge, so
    /// white text reads over a bright picture without a hard-edged bar across it.
    private func drawShades(_ layout: OverlayLayout, on canvas: Canvas) {
        let dark = Color.black.withAlpha(fraction: 0.6), clear = Color.black.withAlpha(fraction: 0)
        if layout.title != nil || layout.closeButton != nil, let top = layout.topShade {
            canvas.fillVerticalGradient(top, top: dark, bottom: clear)
        }
        if layout.track != nil, let bottom = layout.bottomShade {
            canvas.fillVerticalGradient(bottom, top: clear, bottom: dark)
        }
    }

    private func drawTitle(on canvas: Canvas, in layout: OverlayLayout) {
        guard let r = layout.title else { return }
        let (title, details) = MediaView.caption(content, player?.info)
        let sc = interfaceScale
        var baseline = r.y
        if let t = title, let font = FontCache.shared.font(family: nil, size: sc.px(20), bold: true) {
            baseline += font.ascent
            _ = font.draw(font.truncated(t, toWidth: r.width), at: r.x, baseline: baseline, color: .white,
                          shadow: Color.black.withAlpha(fraction: 0.6), on: canvas)
            baseline += sc.px(24) - font.ascent
        }
        if let d = details, let font = FontCache.shared.font(family: nil, size: sc.px(15)) {
            _ = font.draw(font.truncated(d, toWidth: r.width), at: r.x, baseline: baseline + font.ascent + sc.px(4),
                          color: Color(rgb: 0xDDDDDD), shadow: Color.black.withAlpha(fraction: 0.6), on: canvas)
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
