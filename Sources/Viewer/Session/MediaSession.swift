import Playback
import Web
import Windowing

/// What happened to a session during a call, for its view to tell the delegate.
enum SessionEvent {
    /// The media opened; the size is 0 x 0 for sound without a picture.
    case loaded(width: Int, height: Int)
    case played
    case paused
    /// The video or audio reached its end; `looped` says it starts again.
    case finished(looped: Bool)
    case failed(MediaError)
    /// The pointer came to a time on the track whose preview is not on screen yet.
    case hoveredTrack(at: Double)
    /// The preview of a hovered time reached the screen, `waited` seconds after the pointer came.
    case showedTrackPreview(at: Double, waited: Double)
    /// The zoomed part of a picture too large to hold whole became sharp on screen, `waited`
    /// seconds after the view last moved.
    case showedDetail(waited: Double)
}

/// The run-time of one presentation of a view: its player, the picture on screen, how far
/// it played, zoom, pan and rotation, and the small players of its thumbnail and preview.
///
/// A session is made when the view is prepared and dropped when it is dismissed, so going
/// back to an item starts it afresh and an item off screen holds no threads. Its interface
/// is narrow: `tick` follows the player and says what happened, `render` draws, and the
/// playback calls act. The view turns the events into delegate calls. What it knows of its
/// view and window is the `setup` the view hands it; it holds no way back to either.
@MainActor
final class MediaSession {
    /// The media, options and window this session shows, as the view last handed them over.
    private(set) var setup: SessionSetup
    private(set) var player: Player?
    /// The media's picture on screen, once one came.
    var frame: VideoFrame?
    /// A photo's small picture, shown until `frame` comes, and whether its showing was told.
    var firstLook: (look: FirstLook, told: Bool)?
    /// Why the media failed, once it did.
    private(set) var failure: MediaError?
    /// A failure found while preparing ahead, told when the view is presented.
    private var pendingFailure: MediaError?
    /// Where playback stands: loaded, started, finished, loops.
    var progress = Progress()
    /// Zoom, pan and rotation the user chose.
    private(set) var transform = ViewTransform()
    /// The thumbnail's and preview GIF's players.
    var small = SmallPictures()
    /// The full-size decode of a zoomed still.
    var detail = DetailPicture()
    /// Made on first draw: it owns swscale contexts and their threads.
    var scaler: Scaler?
    /// Pictures along the track, made on the first hover.
    var preview: TrackPreview?
    /// The subtitles drawn over the video.
    var subtitles = SubtitleLayer()
    /// When the view was last put on screen (monotonic seconds).
    private(set) var firstShownAt: Double = 0
    /// What drawing found for the delegate (a hover, a preview shown), until the view takes it.
    private var drawEvents: [SessionEvent] = []

    /// Where playback stands.
    struct Progress {
        var announcedReady = false
        /// play() came before the kind was known; `played` follows once it is.
        var playNoticePending = false
        /// Playback was started since the media was set, so the thumbnail gives way.
        var hasStartedPlaying = false
        var finishedAt: Double?
        var loops = 0
    }

    /// Opens the media of `setup`, paused.
    init(_ setup: SessionSetup) {
        self.setup = setup
        if let e = setup.content.unusable { pendingFailure = e; return }
        guard let url = setup.content.url else { return }
        switch MediaView.resolve(url) {
        case .failure(let e):
            // Told when the view is presented, so the log reads in the order things show.
            pendingFailure = e
        case .success(let resolved):
            let wake = setup.wake
            var options = setup.openingOptions(url: url, resolved: resolved)
            // The picture the user steps onto: a photo shows its small picture while it decodes.
            options.firstLook = setup.firstLook
            player = Player(url: resolved, options: options, wake: { wake() })
        }
    }

    var wake: @Sendable () -> Void { setup.wake }
    var content: MediaView.Content { setup.content }
    var settings: MediaView.Settings { setup.settings }
    var interfaceScale: InterfaceScale { setup.interfaceScale }

    /// The owner changed the view's options: drawing and the end of media follow them.
    func use(settings: MediaView.Settings) { setup.settings = settings }

    /// The owner changed what the view shows besides its media (title, thumbnail, preview).
    func use(content: MediaView.Content) { setup.content = content }

    /// The view was put on screen in a window like `window`, now.
    func shown(in window: WindowFacts, at now: Double) {
        setup.window = window
        firstShownAt = now
    }

    /// Whether this picture, opened ahead or shown before, was decoded for a display whose
    /// colour profile has changed since (colord loaded another): shown as it is, it would
    /// keep the old display's colours. Video and sound are not colour-managed, and keep
    /// their place.
    func decodedForAnotherProfile(than window: WindowFacts) -> Bool {
        guard setup.window?.displayProfile != window.displayProfile else { return false }
        return info.map { $0.kind == .image } ?? true
    }

    /// The view left its stage: no desktop scale any more.
    func leftStage() { setup.window?.desktopScale = nil }

    /// Hands over what drawing found for the delegate, in order.
    func takeDrawEvents() -> [SessionEvent] {
        defer { drawEvents.removeAll() }
        return drawEvents
    }

    /// Zooms by a step (positive in, negative out), about the centre.
    func zoom(by step: Double) { transform.zoom(by: step) }
    /// Fit, or 1:1 when already fitted.
    func toggleFitNative() { transform.toggleFitNative() }
    /// Moves a zoomed picture by window pixels.
    /// Zooms by `step` keeping the point of the picture under `point` in place, as far as
    /// the pan's limits allow.
    func zoom(by step: Double, about point: (x: Int, y: Int), in area: (width: Int, height: Int)) {
        let before = contentRect(width: area.width, height: area.height)
        transform.zoom(by: step)
        guard let before, before.width > 0, before.height > 0,
              let after = contentRect(width: area.width, height: area.height) else { return }
        let fx = Double(point.x - before.x) / Double(before.width), fy = Double(point.y - before.y) / Double(before.height)
        let x = Double(point.x) - fx * Double(after.width), y = Double(point.y) - fy * Double(after.height)
        // Where the picture lies is rounded to whole pixels: the pan takes the exact amount, so
        // notch after notch does not drift.
        pan(dx: x - Double(area.width - after.width) / 2 - transform.panX,
            dy: y - Double(area.height - after.height) / 2 - transform.panY, within: area)
    }

    /// Pans, held to what the picture overhangs a `width` x `height` view (when known), so a
    /// pan past an edge need not be undone step by step before the picture moves back.
    func pan(dx: Double, dy: Double, within area: (width: Int, height: Int)?) {
        transform.pan(dx: dx, dy: dy)
        guard let area, let r = contentRect(width: area.width, height: area.height) else { return }
        transform.holdPan(overhangX: Double(max(0, r.width - area.width)) / 2,
                          overhangY: Double(max(0, r.height - area.height)) / 2)
    }
    /// Turns the media by a multiple of 90 degrees.
    func rotate(by degrees: Int) { transform.rotate(by: degrees) }

    /// Asks for the full-size decode of a still shown smaller than it is (a copy, a screenshot).
    func wantFullSizePicture() { detail.wanted = true }

    /// Notes an event found while drawing, for `takeDrawEvents`.
    func noteDrawEvent(_ e: SessionEvent) { drawEvents.append(e) }

    /// Stops every player; the session is not used after.
    func close() {
        player?.close()
        player = nil
        frame = nil
        firstLook = nil
        small.close()
        detail.drop(keepTried: false)
        scaler = nil
        preview?.previewer.close()
        preview = nil
    }

    var info: MediaInfo? { player?.info }
    var isPlaying: Bool { player.map { !$0.isPaused } ?? false }
    var position: Double { player?.position ?? 0 }

    /// What one look at the player found.
    struct Tick {
        /// Something changed on screen.
        var redraw = false
        /// Seconds until the player wants another look; nil: only when woken.
        var deadline: Double?
        /// The media played to its end (and does not loop).
        var finished = false
        /// What the delegate is to hear, in order.
        var events: [SessionEvent] = []

        mutating func soonest(_ d: Double?) {
            if let d { deadline = min(deadline ?? d, d) }
        }
    }

    /// Follows the player: new frames, end of media, failures. `presented` says whether
    /// the view is on screen (a prepared next item only opens).
    func tick(presented: Bool, now: Double) -> Tick {
        var t = Tick()
        if failure != nil { return t }
        if let e = pendingFailure {
            // A prepared item that cannot play says so when its turn comes, not before.
            guard presented else { return t }
            pendingFailure = nil
            fail(e, into: &t)
            return t
        }
        guard let p = player else { return t }
        if frame == nil, firstLook == nil, let look = p.firstLook {
            firstLook = (look, false)
            t.redraw = true
        }
        switch p.phase {
        case .opening:
            return t
        case .failed(let e):
            guard presented else { return t }
            fail(MediaError(e.message), into: &t)
            return t
        case .ready(let info):
            if !progress.announcedReady { announceReady(info, into: &t) }
        }
        openSmallPictures()
        let smallTick = small.tick(presented: presented, showsThumbnail: thumbnailTime)
        if smallTick.redraw { t.redraw = true }
        t.soonest(smallTick.deadline)
        guard presented else { return t }
        // A still is one packet: a stream error there means the picture is damaged; an
        // animation reports one only when nothing of it can be shown.
        if let e = p.decoderStopped ?? p.streamError.flatMap({ e in
            SourceOptions.isNetwork(content.url ?? "") || p.info?.kind == .image || p.info?.kind == .animated ? e : nil
        }) {
            fail(MediaError(e.message), into: &t)
            return t
        }
        switch p.nextFrame() {
        case .show(let f):
            frame = f
            // The sharp picture replaces the small one, which is let go.
            firstLook = nil
            t.redraw = true
        case .wait(let d):
            t.soonest(d)
        case .idle:
            break
        case .finished:
            handleEnd(p, now: now, tick: &t)
        }
        takeArrivals(into: &t)
        return t
    }

    /// What came for the picture on screen since the last look, from its helpers: a sharper
    /// detail, tiles, a track preview, subtitle images later than their frame.
    private func takeArrivals(into t: inout Tick) {
        if tickDetail() { t.redraw = true }
        if detail.tiles?.takeArrivals() == true { t.redraw = true }
        // A preview that arrived while the pointer rests on the track is drawn at once.
        if preview?.previewer.takeNews() == true { t.redraw = true }
        // Subtitle images later than their frame: drawn again with them once they came.
        switch subtitles.owedImagesReady {
        case true?: t.redraw = true
        case false?: t.soonest(0.01)
        case nil: break
        }
    }

    /// The media opened: the loading indicator gives way to whatever the media shows.
    private func announceReady(_ info: MediaInfo, into t: inout Tick) {
        progress.announcedReady = true
        t.redraw = true
        t.events.append(.loaded(width: info.width, height: info.height))
        if progress.playNoticePending {
            progress.playNoticePending = false
            if info.kind != .image { t.events.append(.played) }
        }
    }

    private func fail(_ e: MediaError, into t: inout Tick) {
        let e = e.namingFile(asTyped: content.url)
        failure = e
        player?.close()
        player = nil
        t.events.append(.failed(e))
        t.redraw = true
    }

    private func handleEnd(_ p: Player, now: Double, tick t: inout Tick) {
        guard let info else { return }
        switch info.kind {
        case .animated:
            // GIFs loop, as browsers play them.
            if progress.finishedAt == nil { progress.finishedAt = now }
            progress.loops += 1
            p.seek(to: 0)
            t.deadline = 0
        case .image:
            if progress.finishedAt == nil { progress.finishedAt = now }
            t.finished = true
        case .video, .audio:
            if progress.finishedAt != nil { t.finished = true; return }
            let looping = settings.allowLooping && !settings.shouldDismissAfterFinishedPlaying
            t.events.append(.finished(looped: looping))
            if looping {
                progress.loops += 1
                p.seek(to: 0)
                t.deadline = 0
            } else {
                progress.finishedAt = now
                p.setPaused(true)
                t.finished = true
                t.redraw = true
            }
        }
    }

    /// Whether this item is done for a queue that advances by itself: stills after their
    /// duration, GIFs after a full loop and their duration, playable media at their end.
    func isDone(now: Double) -> Bool {
        if failure != nil { return true }
        guard let info, let since = progress.finishedAt else { return false }
        switch info.kind {
        case .image: return now - since >= settings.imageDuration
        case .animated: return progress.loops > 0 && now - firstShownAt >= settings.imageDuration
        case .video, .audio: return true
        }
    }

    /// When `isDone` is next worth asking. A still's time runs from when it finished
    /// showing, which is when `isDone` counts from; an animation waiting for its first
    /// loop to end is looked at every 10 ms.
    func secondsUntilDone(now: Double) -> Double {
        let since = info?.kind == .image ? progress.finishedAt ?? firstShownAt : firstShownAt
        let left = settings.imageDuration - (now - since)
        return left > 0 ? left : 0.01
    }

    /// Whether the media played to its end (or failed), so a queue may move on.
    var hasEnded: Bool { failure != nil || progress.finishedAt != nil }
}
