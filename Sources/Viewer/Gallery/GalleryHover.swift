import Playback

/// A video cell that plays under a resting pointer: after the pointer rests `rest` seconds
/// on it, the cell shows keyframes from evenly spaced places of the video in turn, `interval`
/// apart, until the pointer leaves and the thumbnail comes back. A user sees what is in a
/// clip without opening it.
///
/// The pictures come from a `TrackPreviewer` of the file, the pipeline of the progress
/// track's hover previews: its own low-priority thread decodes one keyframe at a time, so
/// the grid never waits for them, and a file it cannot open keeps its thumbnail. One cell
/// plays at a time: the pipeline of the cell the pointer left is closed at once.
@MainActor
final class GalleryHover {
    /// How long the pointer rests on a cell before it plays: passing over cells on the way
    /// elsewhere plays none of them.
    static let rest = 0.4
    /// How long the pointer stays on a video cell before its pipeline is made ready: its
    /// sandboxed worker takes about a tenth of a second to start, which the rest of the
    /// rest then covers, while a pointer passing over cells starts none.
    static let warm = 0.15
    /// Seconds each picture shows: slow enough to take in, quick enough to see a clip's
    /// course in a few seconds.
    static let interval = 0.5
    /// Where the pictures are taken, as fractions of the length: 8 places from 10% to 90%,
    /// past a fade-in and before the credits.
    static let places: [Double] = (0..<8).map { 0.1 + 0.8 * Double($0) / 7 }

    /// What a turn of the hover asks of the gallery.
    struct Step {
        /// The playing cell changed its picture, or went back to its thumbnail.
        var redraw = false
        /// Seconds until the hover needs another look; nil: only when woken.
        var deadline: Double?
        /// No picture can be had from the playing cell's file: it keeps its thumbnail.
        var failed = false
    }

    /// Where the pointer is in the window; nil when it is outside.
    var pointer: (x: Int, y: Int)?
    /// The cell (playlist index) the pointer rests on, and since when.
    private(set) var index: Int?
    private var since = 0.0
    /// Whether the rest on `index` was seen through: it plays, or it is no video.
    private var settled = false
    /// The pipeline of the playing cell and the video's length.
    private var previewer: TrackPreviewer?
    /// The pipeline made ready for the cell the pointer rests on, before it plays.
    private var prepared: TrackPreviewer?
    private var length = 0.0
    /// The picture on show in the cell; nil: its thumbnail.
    private(set) var picture: VideoFrame?
    /// The place (index into `places`) to show next, whether it was asked for, and when
    /// the picture on show may give way to it.
    private var next = 0
    private var requested = false
    private var nextAt = 0.0
    /// Places given up in a row: a file whose every place fails stops trying.
    private var misses = 0
    /// Pictures shown since the cell started playing.
    private(set) var shown = 0
    /// Converts the pictures for the cell; its own, so the item's scaling contexts stay.
    let scaler = Scaler()

    /// The pointer is over cell `cell` (nil: no cell) at `now`; returns the cell that stops
    /// playing and how many pictures it showed, when one does.
    func point(at cell: Int?, now: Double) -> (index: Int, pictures: Int)? {
        guard cell != index else { return nil }
        let ended = stop()
        index = cell
        since = now
        return ended
    }

    /// Stops playing and forgets the cell; returns the cell that stopped, as `point` does.
    @discardableResult
    func stop() -> (index: Int, pictures: Int)? {
        let ended = previewer != nil ? index.map { ($0, shown) } : nil
        previewer?.close()
        previewer = nil
        prepared?.close()
        prepared = nil
        picture = nil
        index = nil
        settled = false
        next = 0
        requested = false
        misses = 0
        shown = 0
        return ended
    }

    /// Whether the pointer rested long enough on its cell and the cell is still to be looked
    /// at: the gallery then says whether it is a video (`begin`) or not (`decline`).
    func isDue(now: Double) -> Bool { index != nil && !settled && now >= since + Self.rest }

    /// Whether the pointer stayed long enough on its cell for a video's pipeline to be made
    /// ready (`prepare`), and none was.
    func isWarm(now: Double) -> Bool { index != nil && !settled && prepared == nil && now >= since + Self.warm }

    /// Seconds until the resting pointer makes its cell warm or due; nil when nothing waits,
    /// or when it is due and waits for its thumbnail, whose news wakes the loop (looking
    /// again at once would spin the main thread while the thumbnail is made).
    func untilDue(now: Double) -> Double? {
        guard index != nil, !settled else { return nil }
        let warmLeft = prepared == nil ? since + Self.warm - now : 0
        let left = warmLeft > 0 ? warmLeft : since + Self.rest - now
        return left > 0 ? left : nil
    }

    /// The cell the pointer stays on is a video: `previewer` starts opening it now, so it
    /// plays without waiting once the rest is over.
    func prepare(_ previewer: TrackPreviewer) {
        prepared?.close()
        prepared = previewer
        previewer.prepare()
    }

    /// The rested cell plays `length` seconds of video, from the pipeline made ready for it
    /// or else from `make()`.
    func begin(length: Double, _ make: () -> TrackPreviewer) {
        settled = true
        previewer = prepared ?? make()
        prepared = nil
        self.length = length
    }

    /// The rested cell has nothing to play (a still, a sound, a file without a length).
    func decline() { settled = true }

    /// Seconds the pointer has rested on the cell.
    func rested(now: Double) -> Double { now - since }

    /// Moves the playing cell on: the next place's picture once it is ready and the one on
    /// show had its time, asking the pipeline for it when not. A place the pipeline gives up
    /// on is passed over; a file that cannot be previewed at all goes back to its thumbnail.
    func advance(now: Double) -> Step {
        guard let p = previewer else { return Step(deadline: untilDue(now: now)) }
        if p.isUnavailable || misses >= Self.places.count {
            previewer = nil
            p.close()
            let had = picture != nil
            picture = nil
            return Step(redraw: had, failed: true)
        }
        let ready = p.picture(at: Self.places[next] * length)
        if let ready, picture == nil || now >= nextAt {
            picture = ready
            shown += 1
            misses = 0
            moveOn()
            nextAt = now + Self.interval
            // The next place is decoded while this one shows, so it is ready on time.
            ask(p)
            return Step(redraw: true, deadline: Self.interval)
        }
        if ready == nil && requested && !p.isBusy {
            // Given up within the pipeline's bounds (no keyframe near enough): the next place.
            misses += 1
            moveOn()
            return Step(deadline: 0)
        }
        if ready == nil && !requested { ask(p) }
        // The pipeline wakes the loop when a picture is ready, but not when it gives up.
        let due = picture != nil ? max(0, nextAt - now) : 0.1
        return Step(deadline: ready == nil ? min(due, 0.1) : due)
    }

    /// Asks the pipeline for the next place's picture.
    private func ask(_ p: TrackPreviewer) {
        p.request(at: Self.places[next] * length)
        requested = true
    }

    /// The place after the one just shown or passed over, in a loop.
    private func moveOn() {
        next = (next + 1) % Self.places.count
        requested = false
    }
}
