import Playback
import Windowing

/// Playing a video's cell under the resting pointer (`GalleryHover`): which cell the pointer
/// is on, whether that cell is a video, and its pictures drawn in place of the thumbnail.
extension Gallery {
    /// One turn of the hover: follows the pointer to its cell, starts the rested cell
    /// playing when it is a video, and moves the playing cell on. Returns when to look again.
    func turnHover(_ l: GalleryLayout, on stage: Stage, now: Double) -> Double? {
        let under = hover.pointer.flatMap { l.index(atX: $0.x, y: $0.y) }
        if let ended = hover.point(at: under, now: now) {
            needsRedraw = true
            queue.presentation.onGalleryEvent?(.hoverEnded(index: ended.index, pictures: ended.pictures))
        }
        if hover.isWarm(now: now), let i = hover.index, case .video(let path, _) = playable(i) {
            hover.prepare(previewer(of: path, l, on: stage))
        }
        if hover.isDue(now: now), let i = hover.index {
            switch playable(i) {
            case .video(let path, let length):
                hover.begin(length: length) { previewer(of: path, l, on: stage) }
                queue.presentation.onGalleryEvent?(.hoverRested(index: i, plays: true))
            case .notYet:
                // The thumbnail is still being made: its news wakes the loop.
                break
            case .nothing:
                hover.decline()
                queue.presentation.onGalleryEvent?(.hoverRested(index: i, plays: false))
            }
        }
        let step = hover.advance(now: now)
        if step.failed, let i = hover.index { queue.presentation.onGalleryEvent?(.hoverFailed(index: i)) }
        if step.redraw {
            needsRedraw = true
            if let i = hover.index, let p = hover.picture {
                queue.presentation.onGalleryEvent?(.hoverPicture(index: i, number: hover.shown, at: p.pts,
                                                                 rested: hover.rested(now: now)))
            }
        }
        return step.deadline
    }

    /// The pipeline that plays the video at `path` in a cell. A folder's video the user
    /// never opened is parsed in a sandboxed worker, as its thumbnail was.
    private func previewer(of path: String, _ l: GalleryLayout, on stage: Stage) -> TrackPreviewer {
        let waker = stage.loop.waker
        let player = queue.current?.playerOptions
        return TrackPreviewer(url: path, options: player?.source ?? SourceOptions(), width: l.thumbnail,
                              sandbox: player?.sandbox ?? .automatic, wake: { waker.wake() })
    }

    /// What a rested cell can play.
    enum Playable {
        /// A local video of this many seconds.
        case video(path: String, length: Double)
        /// Its thumbnail, which tells whether it is a video, is still being made.
        case notYet
        /// A still, a sound, web media or a file that failed: it keeps what it shows.
        case nothing
    }

    /// Whether item `i` is a video to play in its cell: its thumbnail came with a length.
    private func playable(_ i: Int) -> Playable {
        guard let path = path(i) else { return .nothing }
        switch worker?.outcome(for: path) {
        case .picture(_, let length?) where length > 0 && length.isFinite: return .video(path: path, length: length)
        case nil: return .notYet
        default: return .nothing
        }
    }

    /// Draws the playing cell's picture over its thumbnail, fitted to the same area.
    func drawHoverPicture(_ i: Int, in area: Rect, over thumbnail: Rect, on canvas: Canvas) {
        guard hover.index == i, let picture = hover.picture else { return }
        let (pw, ph) = picture.displaySize
        guard pw > 0, ph > 0 else { return }
        var w = area.width, h = max(1, w * ph / pw)
        if h > area.height { h = area.height; w = max(1, h * pw / ph) }
        let box = area.centered(width: w, height: h)
        canvas.fillRect(thumbnail, color: Self.cellColor)
        let buffer = canvas.buffer
        let target = ImageTarget(base: buffer.base, width: buffer.width, height: buffer.height, stride: buffer.stride)
        hover.scaler.render(picture, into: target, rect: PixelRect(x: box.x, y: box.y, width: w, height: h),
                            quality: .fast, rotation: 0)
    }
}
