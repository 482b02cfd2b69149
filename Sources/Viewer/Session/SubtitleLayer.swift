import Playback
import Subtitles
import Windowing

/// The subtitles over a session's video: libass's renderer, made when a video with a
/// subtitle track first draws, and the blending of its images into the window.
@MainActor
struct SubtitleLayer {
    /// libass, once needed; nil before, and for media without subtitles.
    private var renderer: SubtitleRenderer?
    /// libass could not start: not tried again for every frame.
    private var unavailable = false

    /// Draws `player`'s subtitles due at `seconds` over the video shown in `rect`, scaled
    /// with it (the thumbnail's are small, fullscreen's large).
    mutating func draw(_ player: Player, at seconds: Double, in rect: Rect, on canvas: Canvas) {
        guard player.subtitleTrackID != nil, !unavailable else { return }
        if renderer == nil {
            renderer = SubtitleRenderer()
            if renderer == nil { unavailable = true; return }
        }
        renderer?.render(player, at: seconds, width: rect.width, height: rect.height) { b in
            canvas.blendMask(b.mask, width: b.width, height: b.height, pitch: b.stride, x: rect.x + b.x, y: rect.y + b.y,
                             color: Color(r: b.red, g: b.green, b: b.blue, a: b.alpha))
        }
    }
}
