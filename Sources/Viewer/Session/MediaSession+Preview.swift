import Playback
import Web
import Windowing

/// A picture of the video at the hovered time, above the track: its own low-priority
/// pipeline (`TrackPreviewer`), started on the first hover, and a scaler of its own so the
/// main picture's scaling contexts stay as they are.
struct TrackPreview {
    let previewer: TrackPreviewer
    let scaler = Scaler()
    var wait = PreviewWait()
}

/// How long the user waited for a hovered time's picture: from the pointer's arrival at a
/// time whose picture was not on screen to the draw that showed it. The owner hears of
/// both ends (`didHoverTrackAt`, `didShowTrackPreviewAt`), once per wait, not per motion.
struct PreviewWait {
    /// The picture on screen now.
    private var shown: ObjectIdentifier?
    /// When the pointer came to a time whose picture is not on screen yet.
    private var since: Double?

    /// What a draw of the preview of `position` means for the wait: a hover that starts
    /// one, a picture that ends one (with the seconds waited), or nothing new.
    mutating func drew(_ picture: VideoFrame?, position: Double, now: Double, pointerMovedAt: Double)
        -> (hovered: Bool, waited: Double?) {
        let id = picture.map(ObjectIdentifier.init)
        if id != nil && id == shown { since = nil; return (false, nil) }
        var hovered = false
        let moved = min(now, pointerMovedAt > 0 ? pointerMovedAt : now)
        if since == nil {
            since = moved
            hovered = true
        } else if let s = since, moved > s {
            // The pointer moved on while waiting: the wait that counts is for where it is now.
            since = moved
        }
        guard let id, let start = since else { return (hovered, nil) }
        shown = id
        since = nil
        return (hovered, max(0, now - start))
    }
}

extension MediaSession {
    /// The preview pipeline for this video, made on first need; nil for anything that has
    /// no moving picture, or when the view turned previews off.
    func trackPreview() -> TrackPreview? {
        if let preview { return preview }
        guard settings.shouldShowTrackPreviews, info?.kind == .video, let url = content.url,
              case .success(let resolved) = MediaView.resolve(url) else { return nil }
        // A web video already complete in the cache is previewed from there; otherwise its
        // ranges are read from the server as the previews need them, and the pictures are
        // kept beside the cache for the next time the video is opened.
        let source = CacheManager.shared.cachedPath(for: resolved).map { "file:" + $0 } ?? resolved
        let width = previewWidth
        let store = SourceOptions.isNetwork(resolved)
            ? CacheManager.shared.diskCache.flatMap { PreviewStore(cache: $0, url: resolved, width: width) } : nil
        let p = TrackPreview(previewer: TrackPreviewer(url: source, options: settings.playerOptions.source, width: width,
                                                       store: store, sandbox: settings.playerOptions.sandbox, wake: wake))
        preview = p
        return p
    }

    /// The previews' width in pixels: the view's setting at the interface's scale.
    var previewWidth: Int { min(640, settings.trackPreviewWidth * interfaceScale.percent / 100) }

    /// Draws the preview of the time at `fraction` above `labelTop`, centred on the pointer
    /// at `x` and at most `maxWidth` x `maxHeight`; asks for it when it is not ready yet.
    func drawPreview(on canvas: Canvas, fraction: Double, pointerX x: Int, above labelTop: Int,
                     maxWidth: Int, maxHeight: Int, now: Double, pointerMovedAt: Double) {
        guard let dur = info?.duration, dur > 0, let p = trackPreview() else { return }
        let t = fraction * dur
        let picture = p.previewer.picture(at: t)
        if picture == nil { p.previewer.request(at: t) }
        let (hovered, waited) = preview?.wait.drew(picture, position: t, now: now, pointerMovedAt: pointerMovedAt) ?? (false, nil)
        if hovered { noteDrawEvent(.hoveredTrack(at: t)) }
        guard let picture else { return }
        let (pw, ph) = picture.displaySize
        guard pw > 0, ph > 0 else { return }
        var w = min(maxWidth, previewWidth), h = max(1, w * ph / pw)
        if h > maxHeight { h = maxHeight; w = max(1, h * pw / ph) }
        let b = canvas.bounds
        let box = Rect(x: max(4, min(b.width - w - 4, x - w / 2)), y: labelTop - h - 6, width: w, height: h)
        guard box.y >= 0, w >= 16, h >= 9 else { return }
        canvas.fillRect(Rect(x: box.x - 2, y: box.y - 2, width: w + 4, height: h + 4), color: Color.black.withAlpha(fraction: 0.8))
        let buffer = canvas.buffer
        let target = ImageTarget(base: buffer.base, width: buffer.width, height: buffer.height, stride: buffer.stride)
        p.scaler.render(picture, into: target, rect: PixelRect(x: box.x, y: box.y, width: w, height: h),
                        quality: .fast, rotation: 0)
        if let waited { noteDrawEvent(.showedTrackPreview(at: t, waited: waited)) }
    }
}
