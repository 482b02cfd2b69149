import Playback
import Windowing

/// Zoom, pan and rotation the user chose on top of the content mode.
struct ViewTransform: Equatable {
    /// Zoom on top of the content mode's scale (1: as the mode says).
    var zoom: Double = 1
    /// Shown at its own pixel size (the 1:1 half of the fit/1:1 toggle).
    var nativeScale = false
    /// How far the zoomed picture was moved, in window pixels.
    var panX: Double = 0
    var panY: Double = 0
    /// Degrees clockwise, a multiple of 90.
    var rotation = 0

    /// Zooms by a step (positive in, negative out), about the centre. A step out undoes the
    /// same step in, so the wheel's notches in and back out return to the same size.
    mutating func zoom(by step: Double) {
        guard step.isFinite else { return }
        let factor = step >= 0 ? 1 + step * 2 : 1 / (1 - step * 2)
        zoom = max(0.1, min(20, zoom * factor))
        // Back where it started, exactly: the fitted picture is zoom 1.
        if abs(zoom - 1) < 1e-9 { zoom = 1 }
    }

    /// Fit, or 1:1 when already fitted: the image viewer's usual toggle.
    mutating func toggleFitNative() {
        if zoom != 1 || panX != 0 || panY != 0 || nativeScale {
            self = ViewTransform(rotation: rotation)
        } else {
            nativeScale = true
        }
    }

    mutating func pan(dx: Double, dy: Double) {
        guard dx.isFinite, dy.isFinite else { return }
        panX += dx
        panY += dy
    }

    /// Keeps the pan within what the picture reaches past the area on each side.
    mutating func holdPan(overhangX: Double, overhangY: Double) {
        panX = max(-overhangX, min(overhangX, panX))
        panY = max(-overhangY, min(overhangY, panY))
    }

    mutating func rotate(by degrees: Int) {
        rotation = ((rotation + degrees) % 360 + 360) % 360
    }
}

/// Drawing the session into a pixel buffer: the picture, black bars, then the overlays.
extension MediaSession {
    /// What the stage knows that drawing needs.
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
        /// When the pointer last moved (the start of a track preview's wait).
        var pointerMovedAt: Double = 0
        /// The pointer is near the track, likely on its way there: previews get ready.
        var pointerNearTrack = false
        /// The top of controls the stage draws over the picture (the thumbnail's play row):
        /// subtitles lift above it while it shows, as picture-in-picture windows lift captions.
        var stageControlsTop: Int?
    }

    /// The picture to draw now: preview, thumbnail frame, the media's own frame, or until
    /// that comes, a photo's small picture.
    var pictureToShow: VideoFrame? {
        if small.isPreviewing, let f = small.previewFrame { return f }
        if showsThumbnail, let f = small.thumbFrame { return f }
        return frame ?? firstLook?.look.frame
    }

    /// The thumbnail shows until playback starts, and stays for audio without cover art.
    var showsThumbnail: Bool {
        guard small.thumbFrame != nil || content.thumbnailImage != nil else { return false }
        return thumbnailTime
    }

    /// Whether this is the time for the thumbnail, whether or not its picture came yet: its
    /// player must run now to bring that picture, or the view would show the media's first
    /// frame instead of the thumbnail the owner chose for before playback.
    var thumbnailTime: Bool {
        if info?.kind == .audio { return !(info?.hasCoverArt ?? false) || !progress.hasStartedPlaying }
        return !progress.hasStartedPlaying
    }

    /// Where the picture goes inside a `width` x `height` area: the content mode's scale,
    /// then zoom and pan. It may reach past the area when filled or zoomed.
    func contentRect(width: Int, height: Int) -> Rect? {
        guard let f = pictureToShow else { return nil }
        var (w, h) = f.displaySize
        let isFirstLook = f === firstLook?.look.frame
        // A still decoded at a reduced size still has its real size: 1:1 and zoom count
        // its pixels, not the decoded ones. A photo's small picture takes the photo's place.
        if isFirstLook, let look = firstLook?.look, look.width > 0, look.height > 0 {
            (w, h) = (look.width, look.height)
        } else if let info, info.isScalable, info.width > 0, info.height > 0 {
            // A drawing's pixels say nothing of its size: 1:1 and zoom count its natural size.
            (w, h) = (info.width, info.height)
        } else if let info, info.kind == .image, info.width > w, w > 0 {
            let factor = Double(info.width) / Double(w)
            (w, h) = (info.width, Int((Double(h) * factor).rounded()))
        }
        if transform.rotation % 180 != 0 { swap(&w, &h) }
        guard w > 0, h > 0, width > 0, height > 0 else { return nil }
        let fill = settings.contentMode == .scaleAspectFill && !(settings.videoAspectFit && info?.kind == .video)
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        var scale = transform.nativeScale ? 1 : (fill ? max(sx, sy) : min(sx, sy))
        // A small picture keeps its own pixels unless the user asked for it to fill the view:
        // a 320x240 GIF blown up fourfold shows nothing more, only blocks. A drawing (SVG)
        // has no pixels to blow up: it is drawn sharp at any size, so it still fills.
        if settings.pictureFit == .small, !fill, info?.kind == .image || info?.kind == .animated || isFirstLook,
           info?.isScalable != true, !showsThumbnail {
            scale = min(scale, 1)
        }
        scale *= transform.zoom
        let rw = max(1, Int((Double(w) * scale).rounded()))
        let rh = max(1, Int((Double(h) * scale).rounded()))
        // Panning never pushes the picture further than its own overhang.
        let ox = Double(max(0, rw - width)) / 2, oy = Double(max(0, rh - height)) / 2
        let px = max(-ox, min(ox, transform.panX)), py = max(-oy, min(oy, transform.panY))
        return Rect(x: (width - rw) / 2 + Int(px.rounded()), y: (height - rh) / 2 + Int(py.rounded()),
                    width: rw, height: rh)
    }

    /// Draws everything into `buffer`.
    func render(into buffer: PixelBuffer, state: RenderState) {
        let canvas = Canvas(buffer: buffer)
        if let f = pictureToShow, let r = contentRect(width: buffer.width, height: buffer.height) {
            buffer.blacken(outside: r)
            buffer.mark(r)
            let target = ImageTarget(base: buffer.base, width: buffer.width, height: buffer.height, stride: buffer.stride)
            let picture = sharperPicture(than: f, shownAs: r)
            let scaler = self.scaler ?? Scaler()
            self.scaler = scaler
            scaler.render(picture, into: target,
                          rect: PixelRect(x: r.x, y: r.y, width: r.width, height: r.height),
                          quality: quality(for: picture, shownAs: r), rotation: transform.rotation)
            if let waited = stillTiles(over: picture, shownAs: r)?.draw(into: target, picture: r, shownWidth: picture.width,
                                                                          scaler: scaler, now: state.now) {
                noteDrawEvent(.showedDetail(waited: waited))
            }
            drawSubtitles(over: f, in: r.intersection(canvas.bounds), on: canvas,
                          floor: min(overlayLayout(in: canvas.bounds, controls: state.showControls).subtitleFloor,
                                     state.stageControlsTop ?? Int.max))
        } else if showsThumbnail, let img = content.thumbnailImage {
            buffer.blacken(outside: nil)
            canvas.blit(image: img, in: Canvas.aspectFit(img, in: canvas.bounds))
        } else {
            buffer.blacken(outside: nil)
        }
        drawOverlays(on: canvas.faded(by: state.overlayOpacity), state: state)
    }

    /// Whether a photo's small picture was drawn in its place, true once: what the log's
    /// `first_look` line and a user's first changed pixel are.
    func takeFirstLookShown() -> Bool {
        guard frame == nil, let f = firstLook, !f.told else { return false }
        firstLook?.told = true
        return true
    }

    /// Moving pictures scale fast; a still gets the better filter, unless it is blown up so
    /// far that its own pixels are the detail: bicubic then costs many times the work of
    /// fast bilinear for a picture that looks the same, and a slide show of small pictures
    /// would pay it for every item.
    /// A picture under 16 pixels on a side shows its pixels as blocks.
    func quality(for picture: VideoFrame, shownAs r: Rect) -> Scaler.Quality {
        guard info?.kind == .image else { return .fast }
        let (w, h) = picture.displaySize
        guard w > 0, h > 0, r.width >= w * 3, r.height >= h * 3 else { return .best }
        return min(w, h) < 16 ? .blocks : .fast
    }

    /// The subtitles due at the picture's own time, so text and picture always agree: a
    /// frame shown late or held while paused gets the lines of its time, and after a seek
    /// the old picture keeps its lines until the new generation's first frame replaces it.
    /// While the controls show, the lines stay above `floor` so the track never covers them.
    private func drawSubtitles(over picture: VideoFrame, in rect: Rect, on canvas: Canvas, floor: Int) {
        guard settings.showsSubtitles, info?.kind == .video, let p = player, picture === frame, !rect.isEmpty else { return }
        subtitles.draw(p, at: picture.pts, in: rect, on: canvas, floor: floor)
    }
}
