import Playback
import Windowing

/// A picture of the video at the hovered time, above the track: its own low-priority
/// pipeline (`TrackPreviewer`), started on the first hover, and a scaler of its own so the
/// main picture's scaling contexts stay as they are.
struct TrackPreview {
    let previewer: TrackPreviewer
    let scaler = Scaler()
}

extension MediaSession {
    /// The preview pipeline for this video, made on first need; nil for anything that has
    /// no moving picture, or when the view turned previews off.
    func trackPreview() -> TrackPreview? {
        if let preview { return preview }
        guard view.settings.shouldShowTrackPreviews, info?.kind == .video, let url = view.content.url,
              case .success(let resolved) = MediaView.resolve(url) else { return nil }
        // A web video already complete in the cache is previewed from there; otherwise its
        // ranges are read from the server as the previews need them, and never cached.
        let source = CacheManager.shared.cachedPath(for: resolved).map { "file:" + $0 } ?? resolved
        let p = TrackPreview(previewer: TrackPreviewer(url: source, options: view.settings.playerOptions.source,
                                                       width: view.settings.trackPreviewWidth, wake: wake))
        preview = p
        return p
    }

    /// Draws the preview of the time at `fraction` above the hover label, centred on the
    /// pointer at `x`; asks for it when it is not ready yet.
    func drawPreview(on canvas: Canvas, buffer: PixelBuffer, fraction: Double, pointerX x: Int, above labelTop: Int) {
        guard let dur = info?.duration, dur > 0, let p = trackPreview() else { return }
        let t = fraction * dur
        guard let picture = p.previewer.picture(at: t) else {
            p.previewer.request(at: t)
            return
        }
        let (pw, ph) = picture.displaySize
        guard pw > 0, ph > 0 else { return }
        let w = view.settings.trackPreviewWidth, h = max(1, w * ph / pw)
        let b = canvas.bounds
        let box = Rect(x: max(4, min(b.width - w - 4, x - w / 2)), y: labelTop - h - 6, width: w, height: h)
        guard box.y >= 0 else { return }
        canvas.fillRect(Rect(x: box.x - 2, y: box.y - 2, width: w + 4, height: h + 4), color: Color.black.withAlpha(fraction: 0.8))
        let target = ImageTarget(base: buffer.base, width: buffer.width, height: buffer.height, stride: buffer.stride)
        p.scaler.render(picture, into: target, rect: PixelRect(x: box.x, y: box.y, width: w, height: h),
                        quality: .fast, rotation: 0)
    }
}
