import Playback
import Subtitles
import Windowing

/// The subtitles over a session's video: their drawer (a sandboxed worker, or libass here
/// with the sandbox off), made when a video with a subtitle track first draws, and the
/// blending of its images into the window.
@MainActor
struct SubtitleLayer {
    /// The drawer, once needed; nil before, and for media without subtitles.
    private var renderer: SubtitleDrawer?
    /// It could not start: not tried again for every frame.
    private var unavailable = false

    /// Below this picture height subtitles are drawn larger than the script says, up to
    /// `largest` times: in a thumbnail they would otherwise be a few pixels high.
    static let readableHeight = 400
    static let largest = 2.2

    /// How much larger than the script's own size lines are drawn in a picture `height`
    /// pixels high: 1 at and above `readableHeight`.
    static func fontScale(forHeight height: Int) -> Double {
        guard height > 0, height < readableHeight else { return 1 }
        return min(largest, Double(readableHeight) / Double(height))
    }

    /// Whether the last frame was drawn without subtitle images still owed by the worker:
    /// nil when none are owed, else whether they can be had now (then the frame is drawn
    /// again; until then, looked at again soon). A paused video would otherwise keep the
    /// frame without its lines.
    var owedImagesReady: Bool? {
        guard let renderer, renderer.owesImages else { return nil }
        return renderer.owedImagesReady
    }

    /// Draws `player`'s subtitles due at `seconds` over the video shown in `rect`, scaled
    /// with it (the thumbnail's are small, fullscreen's large, but never too small to read).
    /// Lines in the lower half that would reach below `floor` are lifted above it, so the
    /// controls never cover them while they show.
    mutating func draw(_ player: Player, at seconds: Double, in rect: Rect, on canvas: Canvas, floor: Int? = nil) {
        guard player.subtitleTrackID != nil, !unavailable else { return }
        if renderer == nil {
            renderer = SubtitleDrawer(for: player)
            if renderer == nil { unavailable = true; return }
        }
        let lift = floor.map { max(0, rect.maxY - $0) } ?? 0
        let middle = rect.y + rect.height / 2
        renderer?.render(player, at: seconds, width: rect.width, height: rect.height,
                         fontScale: Self.fontScale(forHeight: rect.height)) { b in
            let y = rect.y + b.y
            let shift = y >= middle ? lift : 0
            canvas.blendMask(b.mask, width: b.width, height: b.height, pitch: b.stride, x: rect.x + b.x, y: y - shift,
                             color: Color(r: b.red, g: b.green, b: b.blue, a: b.alpha))
        }
    }
}
