import MediaCore
import Playback
import ThumbnailCache
import Windowing

/// The queue as a grid of thumbnails, drawn into the queue's window instead of the item
/// (`g`): the user sees where they are in a long folder and jumps anywhere in it.
///
/// It is a view of its own over the same window, not a state of the item's view: while it
/// shows, it takes the window's keys and clicks (through the `{gallery}` bindings) and
/// draws every turn the window needs drawing; the item under it waits, paused. Thumbnails
/// come from a `ThumbnailWorker` in the background, the cells on screen first; only the
/// cells on screen are looked at, so the grid of a 100,000-item queue scrolls as one of ten.
@MainActor
final class Gallery {
    unowned let queue: MediaQueue
    /// Whether the grid is on screen.
    private(set) var isShown = false
    /// The highlighted item's index in the playlist.
    private(set) var selection = 0
    /// The first row on screen.
    private(set) var topRow = 0
    /// Makes the thumbnails; made when the gallery first shows.
    private(set) var worker: ThumbnailWorker?
    /// The pictures of the cells on screen, ready to draw (converted once, not per frame).
    var images: [String: RGBAImage] = [:]
    /// What the worker was last asked for, so it is asked again only when the cells change.
    private var asked: (range: Range<Int>, count: Int)?
    /// When the grid was shown, until its first screen of thumbnails was complete.
    private var shownAt: Double?
    /// The item playing when the grid opened, to go on playing if the user comes back to it.
    private var resumes: MediaView?
    /// Where the left button went down, for a click.
    var press: (x: Int, y: Int)?
    /// The grid must be drawn again.
    var needsRedraw = false
    /// A cell on screen got its thumbnail since the grid was last drawn.
    private var thumbnailsArrived = false
    /// When the grid was last drawn.
    private var drawnAt = -Double.infinity
    /// The video cell playing under the resting pointer.
    let hover = GalleryHover()

    init(queue: MediaQueue) { self.queue = queue }

    /// The worker's threads hold it until told to stop.
    isolated deinit { worker?.close() }

    /// Stops the thumbnail threads and waits for them: at the end of the program, before
    /// the process exits under a thread still inside a decoder.
    func close() {
        hover.stop()
        worker?.close()
    }

    /// The side of the thumbnails: the standard's large size on a big screen, or on a
    /// desktop that draws at 1.5x or more (where 128 pixels would look like a stamp).
    static func size(for bounds: Rect, scale: InterfaceScale) -> ThumbnailStore.Size {
        bounds.width >= 2560 || scale.percent >= 150 ? .large : .normal
    }

    /// The scale the grid's text and cells are drawn at: the current item's, else the desktop's.
    func scale(on stage: Stage) -> InterfaceScale {
        queue.current?.currentInterfaceScale ?? stage.desktopScale
    }

    /// The grid in a window of `bounds`, at `scale`.
    func layout(in bounds: Rect, scale: InterfaceScale) -> GalleryLayout {
        GalleryLayout(bounds: bounds, count: queue.itemCount, thumbnail: Self.size(for: bounds, scale: scale).rawValue,
                      topRow: topRow, label: scale.px(22))
    }

    /// Shows the grid with the current item highlighted.
    func show(on stage: Stage) {
        guard !isShown, queue.itemCount > 0 else { return }
        isShown = true
        selection = queue.playlistPosition ?? 0
        let size = Self.size(for: stage.bounds, scale: scale(on: stage))
        if worker == nil || worker?.size != size {
            worker?.close()
            let waker = stage.loop.waker
            worker = ThumbnailWorker(store: queue.presentation.thumbnailStore, size: size,
                                     maxPixels: queue.current?.playerOptions.source.maxPixels ?? 100_000_000,
                                     sandbox: queue.current?.playerOptions.sandbox ?? .automatic,
                                     wake: { waker.wake() })
            images.removeAll()
        }
        var l = layout(in: stage.bounds, scale: scale(on: stage))
        // The current item in the middle row, where the eye finds it.
        l.topRow = max(0, min(selection / l.columns - (l.visibleRows - 1) / 2, l.maxTopRow))
        topRow = l.topRow
        asked = nil
        shownAt = MonotonicClock.seconds()
        if let c = queue.current, c.isPlaying {
            c.pause()
            resumes = c
        }
        needsRedraw = true
        let first = l.cell(l.visible.lowerBound)
        queue.presentation.onGalleryEvent?(.shown(items: l.count, columns: l.columns,
                                                  firstCell: first, step: (l.stepX, l.stepY), thumbnail: l.thumbnail))
    }

    /// Leaves the grid; `opening` a playlist index presents that item, nil returns to the
    /// one that was showing.
    func hide(opening index: Int?, on stage: Stage) {
        guard isShown else { return }
        isShown = false
        press = nil
        if let ended = hover.stop() {
            queue.presentation.onGalleryEvent?(.hoverEnded(index: ended.index, pictures: ended.pictures))
        }
        hover.pointer = nil
        images.removeAll()
        asked = nil
        worker?.want([])
        stage.setNeedsRedraw()
        queue.presentation.onGalleryEvent?(.closed(opened: index))
        if let index, index != queue.playlistPosition {
            resumes = nil
            queue.presentItem(at: index)
        } else if let r = resumes, r === queue.current {
            r.play()
        }
        resumes = nil
    }

    /// Carries out a gallery command.
    func perform(_ c: PlayerCommand, on stage: Stage) {
        if c == .toggleGallery {
            if isShown { hide(opening: nil, on: stage) } else { show(on: stage) }
            return
        }
        guard isShown else { return }
        let l = layout(in: stage.bounds, scale: scale(on: stage))
        switch c {
        case .galleryMove(let dx, let dy): select(selection + dx + dy * l.columns, in: l)
        case .galleryPage(let n): select(selection + n * l.visibleRows * l.columns, in: l)
        case .galleryFirst: select(0, in: l)
        case .galleryLast: select(l.count - 1, in: l)
        case .galleryScroll(let rows):
            topRow = l.scrolled(by: rows).topRow
            needsRedraw = true
        case .galleryOpen: hide(opening: selection, on: stage)
        default: break
        }
    }

    /// Highlights item `index` (kept within the queue) and scrolls it into view.
    func select(_ index: Int, in l: GalleryLayout) {
        let i = max(0, min(index, l.count - 1))
        guard i != selection || l.showing(i).topRow != topRow else { return }
        selection = i
        topRow = l.showing(i).topRow
        needsRedraw = true
        queue.presentation.onGalleryEvent?(.selected(index: i))
    }

    /// One turn of the loop while the grid shows: news from the worker, the cells to make
    /// next, and drawing when needed. Returns when to look again.
    func turn(on stage: Stage, now: Double) -> Double? {
        guard isShown, let worker else { return nil }
        let l = layout(in: stage.bounds, scale: scale(on: stage))
        if topRow > l.maxTopRow { topRow = l.maxTopRow; needsRedraw = true }
        selection = min(selection, max(0, l.count - 1))
        askForThumbnails(l, worker: worker)
        let events = worker.takeEvents()
        let onScreen = events.isEmpty ? [] : Set(l.visible.compactMap(path))
        for e in events {
            // The screens made ahead change nothing on show: no redraw for them.
            if onScreen.contains(e.path) { thumbnailsArrived = true }
            queue.presentation.onGalleryEvent?(.thumbnail(path: e.path, source: e.source, seconds: e.seconds, reason: e.reason))
            if let problem = e.cacheProblem { queue.presentation.onWarning?(problem) }
        }
        var deadline = turnHover(l, on: stage, now: now)
        // Thumbnails arrive by the hundred a second from a camera folder; a redraw for each
        // cost more than making them. Those that arrive together are drawn together, at
        // most `thumbnailFrame` apart, which the eye still sees as cells filling in one by one.
        let thumbnailsDue = thumbnailsArrived && now - drawnAt >= Self.thumbnailFrame
        if thumbnailsArrived && !thumbnailsDue { deadline = min(deadline ?? .infinity, drawnAt + Self.thumbnailFrame - now) }
        if stage.takeNeedsRedraw() || needsRedraw || thumbnailsDue {
            needsRedraw = false
            thumbnailsArrived = false
            drawnAt = now
            let complete = draw(on: stage, layout: l)
            if let start = shownAt, complete {
                shownAt = nil
                queue.presentation.onGalleryEvent?(.firstScreen(seconds: MonotonicClock.seconds() - start,
                                                                cells: l.visible.count))
            }
        }
        return deadline
    }

    /// The shortest time between two redraws for thumbnails alone: 30 a second.
    static let thumbnailFrame = 1.0 / 30

    /// Asks the worker for the cells on screen, then a screen below and one above, when
    /// the cells on screen changed since it was last asked.
    private func askForThumbnails(_ l: GalleryLayout, worker: ThumbnailWorker) {
        let shown = l.visible
        guard asked?.range != shown || asked?.count != l.count else { return }
        asked = (shown, l.count)
        let page = max(1, shown.count)
        let below = shown.upperBound..<min(l.count, shown.upperBound + page)
        let above = max(0, shown.lowerBound - page)..<shown.lowerBound
        worker.want((Array(shown) + Array(below) + Array(above.reversed())).compactMap(path))
        // Pictures of cells that scrolled away are let go; the worker keeps a bounded few.
        let keep = Set(shown.compactMap(path))
        images = images.filter { keep.contains($0.key) }
    }

    /// The local file of playlist item `index`, nil for web media (no thumbnail for it).
    func path(_ index: Int) -> String? {
        guard let url = queue.item(at: index)?.mediaURL else { return nil }
        return MediaQueue.localPath(url)
    }
}

/// What the gallery did, for an app's log or a benchmark (`presentation.onGalleryEvent`).
public enum GalleryEvent {
    /// The grid was shown: its items, columns, where its first cell on screen is, the
    /// distance from one cell to the next across and down, and the thumbnails' side.
    case shown(items: Int, columns: Int, firstCell: Rect, step: (x: Int, y: Int), thumbnail: Int)
    /// Every cell of the first screen has its thumbnail (or its failure), this long after
    /// the grid was shown.
    case firstScreen(seconds: Double, cells: Int)
    /// A thumbnail is ready: from the desktop's cache, made now, or it could not be made.
    case thumbnail(path: String, source: ThumbnailWorker.Event.Source, seconds: Double, reason: String?)
    /// The highlight moved to this playlist index.
    case selected(index: Int)
    /// The grid was left, opening this playlist index (nil: back to the item that showed).
    case closed(opened: Int?)
    /// The pointer rested on the cell of this playlist index; `plays` when it is a video
    /// that now plays its keyframes there.
    case hoverRested(index: Int, plays: Bool)
    /// The playing cell of this playlist index shows its `number`th picture, the keyframe
    /// at `at` seconds of the video, `rested` seconds after the pointer came to the cell.
    case hoverPicture(index: Int, number: Int, at: Double, rested: Double)
    /// The pointer left the playing cell, which shows its thumbnail again after `pictures`.
    case hoverEnded(index: Int, pictures: Int)
    /// No picture could be had from the rested video's file: its cell keeps its thumbnail.
    case hoverFailed(index: Int)
}
