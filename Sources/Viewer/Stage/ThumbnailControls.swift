import Playback
import Windowing

/// The controls a thumbnail shows while the pointer is over it, as picture-in-picture
/// windows do and a little further: restore at the top left, close at the top right,
/// play/pause at the bottom centre between 10 seconds back and forward, the sound's volume at the
/// bottom right (a speaker that mutes, a slider, the wheel over either), and a progress line
/// along the bottom that shows the time under the pointer. A click anywhere else restores,
/// as a click on any thumbnail does.
struct ThumbnailControls {
    let bounds: Rect
    /// The interface scale: buttons, line, label and hit areas grow with it.
    var scale: InterfaceScale = .one
    /// The media has sound: the speaker and its slider show.
    var sound = true

    /// What a click on the thumbnail meets.
    enum Hit: Equatable {
        case playPause
        case restore
        case close
        /// The skip buttons, by this many seconds (negative: back).
        case skip(Double)
        /// The speaker: mutes or unmutes.
        case mute
        /// The volume slider, at this volume (0...1).
        case volume(Double)
        /// The progress line, at this fraction of the media.
        case progress(Double)
        /// Anywhere else: a click there restores, as a plain thumbnail does.
        case elsewhere
    }

    /// How far the skip buttons jump.
    static let skipSeconds = 10.0

    private var button: Int { max(scale.px(20), min(scale.px(36), bounds.height / 5)) }
    private var margin: Int { scale.px(6) }
    /// The big button, centred along the bottom above the progress line: the middle stays
    /// free, since a click on a thumbnail's picture restores it.
    var playButton: Rect {
        let side = button * 4 / 3
        return Rect(x: (bounds.width - side) / 2, y: bounds.height - scale.px(18) - side, width: side, height: side)
    }
    var skipBackButton: Rect {
        let p = playButton
        return Rect(x: p.x - scale.px(12) - button, y: p.y + (p.height - button) / 2, width: button, height: button)
    }
    var skipForwardButton: Rect {
        let p = playButton
        return Rect(x: p.maxX + scale.px(12), y: p.y + (p.height - button) / 2, width: button, height: button)
    }
    var restoreButton: Rect { Rect(x: margin, y: margin, width: button, height: button) }
    var closeButton: Rect { Rect(x: bounds.width - margin - button, y: margin, width: button, height: button) }
    /// The speaker at the bottom right, above the progress line.
    var speakerButton: Rect {
        Rect(x: bounds.width - margin - button, y: bounds.height - scale.px(18) - button, width: button, height: button)
    }
    /// The volume slider left of the speaker; its hit area is as tall as the speaker.
    var volumeSlider: Rect {
        let w = min(scale.px(64), bounds.width / 4)
        let sp = speakerButton
        return Rect(x: sp.x - scale.px(4) - w, y: sp.y, width: w, height: sp.height)
    }
    /// The band along the bottom that the progress line lives in (taller than the line, to
    /// be easy to hit).
    var progressBand: Rect { Rect(x: 0, y: bounds.height - scale.px(14), width: bounds.width, height: scale.px(14)) }
    /// The pointer this close to the bottom shows the time (and preview) under it.
    var hoverBandHeight: Int { scale.px(40) }

    /// The volume a click at `x` on the slider sets.
    func volume(atX x: Int) -> Double {
        let r = volumeSlider
        guard r.width > 0 else { return 0 }
        return max(0, min(1, Double(x - r.x) / Double(r.width)))
    }

    func hit(x: Int, y: Int) -> Hit {
        if closeButton.contains(x: x, y: y) { return .close }
        if restoreButton.contains(x: x, y: y) { return .restore }
        if playButton.contains(x: x, y: y) { return .playPause }
        if skipBackButton.contains(x: x, y: y) { return .skip(-Self.skipSeconds) }
        if skipForwardButton.contains(x: x, y: y) { return .skip(Self.skipSeconds) }
        if sound && speakerButton.contains(x: x, y: y) { return .mute }
        if sound && volumeSlider.contains(x: x, y: y) { return .volume(volume(atX: x)) }
        if progressBand.contains(x: x, y: y), bounds.width > 0 {
            return .progress(max(0, min(1, (Double(x) + 0.5) / Double(bounds.width))))
        }
        return .elsewhere
    }

    /// Draws the controls over the picture; the progress line only for playable media, with
    /// the time under the pointer and, for video, a preview of that time sized to the
    /// thumbnail (at most a third of its width and under half its height, so the picture
    /// that plays stays in view).
    @MainActor
    func draw(on canvas: Canvas, view s: MediaView, theme: Color, pointerX: Int?, now: Double, pointerMovedAt: Double) {
        let playable = s.info?.isPlayable ?? false
        canvas.fillVerticalGradient(Rect(x: 0, y: bounds.height * 3 / 5, width: bounds.width, height: bounds.height * 2 / 5),
                                    top: Color.black.withAlpha(fraction: 0), bottom: Color.black.withAlpha(fraction: 0.55))
        if playable {
            if s.isPlaying { drawPause(on: canvas, in: playButton) }
            else { Indicators.drawPlayIndicator(on: canvas, in: playButton, theme: theme) }
            ThumbnailIcons.drawSkip(on: canvas, in: skipBackButton, seconds: -Self.skipSeconds, scale: scale)
            ThumbnailIcons.drawSkip(on: canvas, in: skipForwardButton, seconds: Self.skipSeconds, scale: scale)
        }
        if sound {
            ThumbnailIcons.drawSpeaker(on: canvas, in: speakerButton, volume: s.isMuted ? 0 : s.volume, muted: s.isMuted)
            ThumbnailIcons.drawSlider(on: canvas, in: volumeSlider, value: s.isMuted ? 0 : s.volume, theme: theme,
                                      scale: scale)
        }
        drawRestore(on: canvas, in: restoreButton)
        Indicators.drawCloseButton(on: canvas, in: closeButton)
        guard playable, let duration = s.info?.duration, duration > 0 else { return }
        // The pointer is over the thumbnail: its line, and a preview, are a move away.
        s.prepareTrackPreviews()
        let line = Rect(x: 0, y: bounds.height - scale.px(4), width: bounds.width, height: scale.px(4))
        canvas.fillRect(line, color: Color.white.withAlpha(fraction: 0.3))
        let played = Int(Double(bounds.width) * max(0, min(1, s.position / duration)))
        canvas.fillRect(Rect(x: 0, y: line.y, width: played, height: line.height), color: theme)
        guard let x = pointerX, let font = FontCache.shared.font(family: nil, size: scale.px(13)) else { return }
        let fraction = max(0, min(1, Double(x) / Double(max(1, bounds.width))))
        let text = MediaView.formatTime(fraction * duration, longest: duration)
        let w = font.measure(text).width
        let pad = scale.px(4)
        let bx = max(0, min(bounds.width - w - 2 * pad, x - w / 2 - pad))
        let box = Rect(x: bx, y: line.y - scale.px(20), width: w + 2 * pad, height: scale.px(17))
        canvas.fillRoundedRect(box, radius: Double(scale.px(3)), color: Color.black.withAlpha(fraction: 0.7))
        _ = font.draw(text, at: bx + pad, baseline: box.y + scale.px(13), color: .white, on: canvas)
        s.drawTrackPreview(on: canvas, fraction: fraction, pointerX: x, above: box.y,
                           maxWidth: bounds.width / 3, maxHeight: bounds.height * 2 / 5, now: now, pointerMovedAt: pointerMovedAt)
    }

    private func drawPause(on canvas: Canvas, in rect: Rect) {
        let (cx, cy) = rect.center
        let r = Double(rect.width) / 2
        canvas.fillCircle(centerX: cx, centerY: cy, radius: r, color: Color.black.withAlpha(fraction: 0.5))
        let barW = max(2, Int(r * 0.25)), barH = Int(r * 0.9)
        let top = Int(cy) - barH / 2
        canvas.fillRect(Rect(x: Int(cx) - barW - barW / 2, y: top, width: barW, height: barH), color: .white)
        canvas.fillRect(Rect(x: Int(cx) + barW / 2, y: top, width: barW, height: barH), color: .white)
    }

    /// A window outline with a corner arrow: "back to full size".
    private func drawRestore(on canvas: Canvas, in rect: Rect) {
        let (cx, cy) = rect.center
        let r = Double(rect.width) / 2
        canvas.fillCircle(centerX: cx, centerY: cy, radius: r, color: Color.black.withAlpha(fraction: 0.5))
        let s = r * 0.5, t = max(1.5, r * 0.12)
        canvas.drawLine(from: (cx - s, cy - s), to: (cx + s, cy - s), thickness: t, color: .white)
        canvas.drawLine(from: (cx + s, cy - s), to: (cx + s, cy + s), thickness: t, color: .white)
        canvas.drawLine(from: (cx + s, cy + s), to: (cx - s, cy + s), thickness: t, color: .white)
        canvas.drawLine(from: (cx - s, cy + s), to: (cx - s, cy - s), thickness: t, color: .white)
        canvas.drawLine(from: (cx - s * 0.4, cy + s * 0.4), to: (cx + s * 0.6, cy - s * 0.6), thickness: t, color: .white)
    }
}
