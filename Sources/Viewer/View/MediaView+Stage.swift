import Playback
import Windowing

/// What a stage and a queue ask of a view: follow it, draw it, hit-test its controls, and
/// the few things a gesture does to it. The session behind these stays the view's own.
extension MediaView {
    /// The track's layout: its band, its bar between the time labels, and the labels.
    typealias TrackLayout = (band: Rect, bar: Rect, left: String, right: String, font: FontRenderer)

    /// Whether the view has been prepared (its media opened, or opening).
    var isPrepared: Bool { session != nil }

    /// Whether the media's own picture (not a thumbnail or indicator) came.
    var hasPicture: Bool { session?.frame != nil }

    /// Whether anything of the media would be drawn now: its picture, a first look, a
    /// preview or its thumbnail.
    var hasPictureToShow: Bool { session.map { $0.pictureToShow != nil || $0.showsThumbnail } ?? false }

    /// Whether a photo's small picture was just drawn in its place (true once per showing).
    func takeFirstLookShown() -> Bool { session?.takeFirstLookShown() ?? false }

    /// The loading or buffering indicator turns while this holds.
    var isWaitingForData: Bool { session?.isWaitingForData ?? false }

    /// When the loading indicator starts to show, while the media opens.
    var loadingIndicatorFrom: Double? { session?.loadingIndicatorFrom }

    /// Whether the media played to its end (or failed), so a queue may move on.
    var hasEnded: Bool { session?.hasEnded ?? false }

    /// Whether the item is done for a queue that advances by itself.
    func isDone(now: Double) -> Bool { session?.isDone(now: now) ?? false }

    /// When `isDone` is next worth asking, for a queue that advances by itself.
    func secondsUntilDone(now: Double) -> Double? { session?.secondsUntilDone(now: now) }

    /// Draws the view into `buffer`, then tells the delegate what drawing found (a hovered
    /// time on the track, a preview that reached the screen).
    func render(into buffer: PixelBuffer, state: MediaSession.RenderState) {
        guard let s = session else { return }
        s.render(into: buffer, state: state)
        for e in s.takeDrawEvents() { report(e) }
    }

    /// Zooms by `step` keeping the picture's point under `point` (window pixels of a
    /// `area`-sized window) where it is.
    func zoom(by step: Double, about point: (x: Int, y: Int), in area: (width: Int, height: Int)) {
        session?.zoom(by: step, about: point, in: area)
    }

    /// Whether the user zoomed the picture past a `width` x `height` window: a drag then pans
    /// it rather than minimizing the view. A picture that only fills the view (aspect fill)
    /// keeps the swipe.
    func overhangs(width: Int, height: Int) -> Bool {
        guard let s = session, s.transform.zoom > 1 || s.transform.nativeScale,
              let r = s.contentRect(width: width, height: height) else { return false }
        return r.width > width || r.height > height
    }

    /// The band that holds the track in `bounds`; nil while the view is not prepared.
    func trackBand(in bounds: Rect) -> Rect? { session?.trackRect(in: bounds) }

    /// The close button in `bounds`; nil when it is hidden or the view not prepared.
    func closeButtonRect(in bounds: Rect) -> Rect? { session?.closeButtonRect(in: bounds) }

    /// Where the track and its labels are in `bounds`; nil when no track shows.
    func trackLayout(in bounds: Rect) -> TrackLayout? { session?.trackLayout(in: bounds) }

    /// Shows the preview GIF while the button is held; false when there is none to show.
    func startPreview() -> Bool { session?.startPreview() ?? false }

    /// Back to the thumbnail or the paused frame after the button is released.
    func stopPreview() { session?.stopPreview() }

    /// Decodes cheaply while small: the thumbnail needs less than every detail.
    func setLowPower(_ on: Bool) { session?.setLowPower(on) }

    /// Lowers the sound by `duck` (0...1) while a gesture throws the view away, without
    /// touching the volume the user chose; 1 is the chosen volume.
    func duckVolume(_ duck: Double) { session?.applyVolume(settings.playerOptions, duck: duck) }

    /// Gets the previews of the track ready: the pointer is a move away from them.
    func prepareTrackPreviews() { session?.trackPreview()?.previewer.prepare() }

    /// Draws the preview of the time at `fraction` above `labelTop` (see
    /// `MediaSession.drawPreview`), and tells the delegate about the wait for it.
    func drawTrackPreview(on canvas: Canvas, fraction: Double, pointerX x: Int, above labelTop: Int,
                          maxWidth: Int, maxHeight: Int, now: Double, pointerMovedAt: Double) {
        guard let s = session else { return }
        s.drawPreview(on: canvas, fraction: fraction, pointerX: x, above: labelTop, maxWidth: maxWidth,
                      maxHeight: maxHeight, now: now, pointerMovedAt: pointerMovedAt)
        for e in s.takeDrawEvents() { report(e) }
    }

    /// The on-screen messages that last; those that expired are dropped and `expired`
    /// says the picture needs drawing once more without them.
    func currentMessages(now: Double) -> (messages: [OnScreenMessage], expired: Bool) {
        let live = messages.filter { $0.until > now }
        let expired = live.count != messages.count
        messages = live
        return (live, expired)
    }

    /// Draws the messages and the info panel's `panel` lines where the overlay layout puts
    /// them, clear of the title, the controls and each other.
    func drawNotices(_ messages: [OnScreenMessage], panel: [InfoPanel.Line]?, controls: Bool, on canvas: Canvas) {
        session?.drawNotices(messages, panel: panel, controls: controls, on: canvas)
    }

    /// Where the overlays go in `bounds`, with the controls shown or hidden; nil while the
    /// view is not prepared.
    func overlayLayout(in bounds: Rect, controls: Bool) -> OverlayLayout? {
        session?.overlayLayout(in: bounds, controls: controls)
    }
}
