import Dispatch
import FoundationEssentials
import Glibc
import Playback
import Windowing

/// Drawing the view into a pixel buffer: the picture, black bars, then the overlays.
extension MediaView {
    /// What the presenter knows that drawing needs.
    struct RenderState {
        var now: Double
        /// Controls (track, title) are showing: the pointer moved recently, or paused.
        var showControls: Bool
        /// Overlays fade with this during a drag (1 - progress).
        var overlayOpacity: Double = 1
        /// The pointer is over the track.
        var trackHover: Bool = false
        /// The pointer, for the time shown above the track while hovering.
        var pointerX: Int?
    }

    /// Where the picture goes inside a `width` x `height` area: the content mode's scale,
    /// then zoom and pan. It may reach past the area when filled or zoomed.
    func contentRect(width: Int, height: Int) -> Rect? {
        guard let f = pictureToShow else { return nil }
        var (w, h) = f.displaySize
        // A still decoded at a reduced size still has its real size: 1:1 and zoom count
        // its pixels, not the decoded ones.
        if let info, info.kind == .image, info.width > w, w > 0 {
            let factor = Double(info.width) / Double(w)
            (w, h) = (info.width, Int((Double(h) * factor).rounded()))
        }
        if userRotation % 180 != 0 { swap(&w, &h) }
        guard w > 0, h > 0, width > 0, height > 0 else { return nil }
        let isVideo = info?.kind == .video
        let fill = contentMode == .aspectFill && !(videoAspectFit && isVideo)
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        var scale = nativeScale ? 1 : (fill ? max(sx, sy) : min(sx, sy))
        scale *= zoom
        let rw = max(1, Int((Double(w) * scale).rounded()))
        let rh = max(1, Int((Double(h) * scale).rounded()))
        // Panning never pushes the picture further than its own overhang.
        let ox = Double(max(0, rw - width)) / 2, oy = Double(max(0, rh - height)) / 2
        let px = max(-ox, min(ox, pan.x)), py = max(-oy, min(oy, pan.y))
        return Rect(x: (width - rw) / 2 + Int(px.rounded()), y: (height - rh) / 2 + Int(py.rounded()),
                    width: rw, height: rh)
    }

    /// Zooms by a step (positive in, negative out), about the centre.
    public func zoom(by step: Double) {
        zoom = max(0.1, min(20, zoom * (1 + step * 2)))
    }

    /// Fit, or 1:1 when already fitted: the viewer's usual toggle.
    public func toggleFitNative() {
        if zoom != 1 || pan != (0, 0) || nativeScale {
            zoom = 1
            pan = (0, 0)
            nativeScale = false
        } else {
            nativeScale = true
        }
    }

    /// Moves a zoomed picture.
    public func pan(dx: Int, dy: Int) {
        pan = (pan.x + Double(dx), pan.y + Double(dy))
    }

    /// Draws everything into `buffer`.
    func render(into buffer: PixelBuffer, state: RenderState) {
        let canvas = Canvas(buffer: buffer)
        if let f = pictureToShow, let r = contentRect(width: buffer.width, height: buffer.height) {
            fillBars(buffer, around: r)
            let target = ImageTarget(base: buffer.base, width: buffer.width, height: buffer.height, stride: buffer.stride)
            let quality: Scaler.Quality = info?.kind == .image ? .best : .fast
            let scaler = self.scaler ?? Scaler()
            self.scaler = scaler
            scaler.render(sharperPicture(than: f, shownAs: r), into: target, rect: PixelRect(x: r.x, y: r.y, width: r.width, height: r.height),
                          quality: quality, rotation: userRotation)
        } else if showsThumbnail, let img = thumbnailImage {
            buffer.clear()
            canvas.blit(image: img, in: Canvas.aspectFit(img, in: canvas.bounds))
        } else {
            buffer.clear()
        }
        drawOverlays(on: canvas.faded(by: state.overlayOpacity), state: state)
    }

    private func fillBars(_ b: PixelBuffer, around full: Rect) {
        let r = full.intersection(Rect(x: 0, y: 0, width: b.width, height: b.height))
        b.fill(x: 0, y: 0, width: b.width, height: r.y, color: 0)
        b.fill(x: 0, y: r.y + r.height, width: b.width, height: b.height - r.y - r.height, color: 0)
        b.fill(x: 0, y: r.y, width: r.x, height: r.height, color: 0)
        b.fill(x: r.x + r.width, y: r.y, width: b.width - r.x - r.width, height: r.height, color: 0)
    }

    private func drawOverlays(on canvas: Canvas, state: RenderState) {
        let b = canvas.bounds
        let side = max(24, min(96, min(b.width, b.height) / 6))
        let center = Rect(x: b.width / 2 - side / 2, y: b.height / 2 - side / 2, width: side, height: side)
        if let e = failure {
            if let img = customFailButton {
                Indicators.drawCustomIndicator(img, on: canvas, in: center)
            } else {
                Indicators.drawFailIndicator(on: canvas, in: center, theme: themeColor)
            }
            drawCaption(e.message, on: canvas, below: center)
            return
        }
        guard let p = player else { return }
        if case .opening = p.phase {
            // Playable media pulses its play indicator while it loads; pictures spin.
            let phase = state.now.truncatingRemainder(dividingBy: 1)
            if (kind == .video || kind == .audio) && !shouldHidePlayButton {
                Indicators.drawPlayIndicator(on: canvas, in: center, theme: themeColor, pulse: 0.5 - 0.5 * cos(phase * 2 * .pi))
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
        if info.kind == .audio && lastFrame == nil && !showsThumbnail {
            if let img = customMusicButton {
                Indicators.drawCustomIndicator(img, on: canvas, in: center)
            } else {
                Indicators.drawMusicIndicator(on: canvas, in: center, theme: themeColor)
            }
        } else if info.isPlayable && p.isPaused && !shouldHidePlayButton {
            if let img = customPlayButton {
                Indicators.drawCustomIndicator(img, on: canvas, in: center)
            } else {
                Indicators.drawPlayIndicator(on: canvas, in: center, theme: themeColor)
            }
        }
        guard state.showControls else { return }
        if let r = closeButtonRect(in: b) { Indicators.drawCloseButton(on: canvas, in: r) }
        drawTitle(on: canvas)
        if info.isPlayable && shouldShowTrack { drawTrack(on: canvas, info: info, state: state) }
    }

    /// Whether the close button shows: it may only hide when a swipe can dismiss instead.
    var showsCloseButton: Bool { !(shouldHideCloseButton && swipeMode != .none) }

    /// The close button, top right below the top buffer; nil when hidden.
    func closeButtonRect(in b: Rect) -> Rect? {
        guard showsCloseButton else { return nil }
        return Rect(x: b.width - 48, y: topBuffer + 12, width: 36, height: 36)
    }

    /// The band at the bottom that holds the progress track and its time labels.
    func trackRect(in b: Rect) -> Rect {
        let h = 40
        return Rect(x: 16, y: b.height - h - 8, width: max(0, b.width - 32), height: h)
    }

    /// The track's band, its bar between the time labels, and the labels' text.
    func trackLayout(in bounds: Rect) -> (band: Rect, bar: Rect, left: String, right: String, font: FontRenderer)? {
        guard let info, info.isPlayable, shouldShowTrack,
              let font = FontCache.shared.font(family: trackFont, size: 14) else { return nil }
        let band = trackRect(in: bounds)
        let pos = position
        let dur = info.duration ?? 0
        let left = MediaView.formatTime(pos, longest: dur)
        let right = shouldDisplayRemainingTime ? "-" + MediaView.formatTime(max(0, dur - pos), longest: dur)
                                               : MediaView.formatTime(dur, longest: dur)
        // Label widths from the longest text they can hold, so the bar does not jitter.
        let sample = MediaView.formatTime(dur, longest: dur).map { $0.isNumber ? "0" : $0 }
        let lw = font.measure(String(sample)).width, rw = font.measure("-" + String(sample)).width
        let bar = Rect(x: band.x + lw + 12, y: band.y, width: max(0, band.width - lw - rw - 24), height: band.height)
        return (band, bar, left, right, font)
    }

    /// Where on the media a pointer at `x` over the track points, 0...1.
    func trackFraction(atX x: Int, in bounds: Rect) -> Double? {
        guard let l = trackLayout(in: bounds) else { return nil }
        return Indicators.progressFraction(atX: x, in: l.bar)
    }

    private func drawTrack(on canvas: Canvas, info: MediaInfo, state: RenderState) {
        guard let l = trackLayout(in: canvas.bounds) else { return }
        let font = l.font
        let baseline = l.band.y + l.band.height / 2 + font.ascent / 2 - 1
        canvas.fillRect(Rect(x: l.band.x - 8, y: l.band.y, width: l.band.width + 16, height: l.band.height),
                        color: Color.black.withAlpha(fraction: 0.35))
        _ = font.draw(l.left, at: l.band.x, baseline: baseline, color: .white, on: canvas)
        _ = font.draw(l.right, at: l.band.maxX - font.measure(l.right).width, baseline: baseline, color: .white, on: canvas)
        let dur = info.duration ?? 0
        let progress = dur > 0 ? position / dur : 0
        Indicators.drawProgressTrack(on: canvas, in: l.bar, progress: progress, buffered: player?.bufferedFraction ?? 0,
                                     theme: themeColor, hover: state.trackHover)
        if state.trackHover, let x = state.pointerX, dur > 0 {
            // The time under the pointer, just above the bar.
            let f = Indicators.progressFraction(atX: x, in: l.bar)
            let text = MediaView.formatTime(f * dur, longest: dur)
            let w = font.measure(text).width
            let bx = max(l.bar.x, min(l.bar.maxX - w - 8, x - w / 2 - 4))
            let box = Rect(x: bx, y: l.band.y - 24, width: w + 8, height: 20)
            canvas.fillRoundedRect(box, radius: 4, color: Color.black.withAlpha(fraction: 0.7))
            _ = font.draw(text, at: bx + 4, baseline: box.y + 15, color: .white, on: canvas)
        }
    }

    private func drawTitle(on canvas: Canvas) {
        guard title != nil || details != nil else { return }
        let b = canvas.bounds
        let top = topBuffer + 12
        canvas.fillRect(Rect(x: 0, y: topBuffer, width: b.width, height: details == nil ? 44 : 68),
                        color: Color.black.withAlpha(fraction: 0.35))
        if let t = title, let font = FontCache.shared.font(family: nil, size: 20, bold: true) {
            let s = font.truncated(t, toWidth: b.width - 80)
            _ = font.draw(s, at: 16, baseline: top + font.ascent, color: .white, shadow: .black, on: canvas)
        }
        if let d = details, let font = FontCache.shared.font(family: nil, size: 15) {
            let s = font.truncated(d, toWidth: b.width - 80)
            _ = font.draw(s, at: 16, baseline: top + 30 + font.ascent, color: Color(rgb: 0xDDDDDD), on: canvas)
        }
    }

    private func drawCaption(_ text: String, on canvas: Canvas, below r: Rect) {
        guard let font = FontCache.shared.font(family: nil, size: 16) else { return }
        let s = font.truncated(text, toWidth: canvas.bounds.width - 40)
        let w = font.measure(s).width
        _ = font.draw(s, at: (canvas.bounds.width - w) / 2, baseline: r.y + r.height + 28, color: .white,
                      shadow: .black, on: canvas)
    }

    /// `m:ss`, or `h:mm:ss` when the media is an hour or longer.
    public static func formatTime(_ seconds: Double, longest: Double) -> String {
        let s = max(0, Int(seconds.isFinite ? seconds : 0))
        let h = s / 3600, m = (s % 3600) / 60, sec = s % 60
        let pad = { (n: Int) in TextFormat.padded(n, width: 2) }
        if longest >= 3600 || h > 0 { return "\(h):\(pad(m)):\(pad(sec))" }
        return "\(m):\(pad(sec))"
    }
}

/// Fonts are costly to open; one renderer per family, size and weight for the process.
@MainActor
final class FontCache {
    static let shared = FontCache()
    private var fonts: [String: FontRenderer?] = [:]

    func font(family: String?, size: Int, bold: Bool = false) -> FontRenderer? {
        let key = "\(family ?? "sans-serif")|\(size)|\(bold)"
        if let f = fonts[key] { return f }
        let f = try? FontRenderer(family: family ?? "sans-serif", pixelSize: size, bold: bold)
        fonts[key] = f
        return f
    }
}
