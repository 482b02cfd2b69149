import Playback
import Windowing

/// The full-size decode of a zoomed still.
///
/// A large photo is decoded at a reduced size that still covers the window (JPEG's DCT
/// scaling): that is what makes its first picture fast. Zoomed in, shown 1:1, or in a
/// window that grew, it would show those few pixels blown up; so the first time it is drawn
/// larger than it was decoded, a second player decodes it at full size and that picture is
/// used from then on wherever the small one is not enough, as image viewers do.
struct DetailPicture {
    var player: Player?
    var frame: VideoFrame?
    /// Drawing found the small picture too small.
    var wanted = false
    /// Tried once: a file gone or damaged since keeps its small picture, quietly.
    var tried = false
    /// A vector picture (SVG) is drawn anew at the size it is shown: the size wanted next.
    var wantedSize: (width: Int, height: Int)?
    /// A JPEG over the pixel budget never has a full-size picture: tiles of what is shown.
    var tiles: StillTiles?
    /// Why the last full-size decode or drawing failed, which the user is not told (the
    /// smaller picture stays): kept for the tests and the debugger to show.
    var failure: String?

    /// Lets go of the full-size decode and its picture (~4 bytes a pixel).
    mutating func drop(keepTried: Bool) {
        player?.close()
        self = DetailPicture(tried: keepTried)
    }
}

extension MediaSession {
    /// The picture to scale into `rect`: the full-size one when the small `frame` would be
    /// enlarged and a full-size one exists; otherwise `frame`, noting the wish for one.
    func sharperPicture(than shown: VideoFrame, shownAs rect: Rect) -> VideoFrame {
        guard shown === frame, let info, info.kind == .image else { return shown }
        if info.isScalable { return redrawnPicture(than: shown, shownAs: rect) }
        let (w, h) = shown.displaySize
        let decoded = Double(w * h), area = Double(rect.width * rect.height)
        guard area > decoded * 1.1, Double(info.width * info.height) > decoded * 1.1 else { return shown }
        // Over the budget, the whole photo is never held: `stillTiles` brings the detail.
        if info.width * info.height > settings.playerOptions.source.maxPixels { return shown }
        if let d = detail.frame { return d }
        detail.wanted = true
        return shown
    }

    /// The tiles of a JPEG, PNG or TIFF still over the pixel budget, made the first time it is drawn
    /// upright; nil for every other picture. They may hold a quarter of what the budget
    /// leaves beside the reduced picture: the budget is what the user allows for a picture,
    /// and the tiles, the picture and the scaler's copies all come out of it.
    ///
    /// A PNG's or TIFF's tiles need a pass over the whole file and a pyramid on disk (about
    /// 5 bytes a pixel), so they are made only once the picture is shown larger than its
    /// reduced decode (`rect`, where it lies on screen): a look at a scan costs no writing.
    func stillTiles(over shown: VideoFrame, shownAs rect: Rect) -> StillTiles? {
        guard shown === frame, let info, info.kind == .image, ["mjpeg", "png", "tiff"].contains(info.videoCodec ?? ""),
              info.rotation == 0,
              shown.rotation == 0, transform.rotation == 0 else { return nil }
        let budget = settings.playerOptions.source.maxPixels
        guard info.width * info.height > budget else { return nil }
        if let t = detail.tiles { return t }
        if info.videoCodec != "mjpeg", rect.width <= shown.width { return nil }
        guard !detail.tried, let url = content.url, case .success(let resolved) = MediaView.resolve(url),
              resolved.hasPrefix("file:") else {
            detail.tried = true
            return nil
        }
        let t = StillTiles(path: resolved, budget: max(0, budget - shown.width * shown.height) / 4,
                           displayProfile: setup.window?.displayProfile, sandbox: settings.playerOptions.sandbox,
                           scratch: settings.playerOptions.scratchDirectory, wake: wake)
        detail.tiles = t
        return t
    }

    /// Starts the full-size decode when one is wanted and takes its picture when it comes;
    /// true when there is a sharper picture to draw.
    func tickDetail() -> Bool {
        if info?.isScalable == true { return tickRedraw() }
        if detail.wanted, !detail.tried, detail.player == nil, let url = content.url {
            detail.tried = true
            if case .success(let resolved) = MediaView.resolve(url) {
                var o = setup.openingOptions(url: url, resolved: resolved)
                o.targetSize = nil
                o.audio = false
                let w = wake
                detail.player = Player(url: resolved, options: o, wake: { w() })
            }
        }
        detail.wanted = false
        guard let dp = detail.player else { return false }
        if case .failed(let why) = dp.phase {
            // The small picture stays; a second failure message would only confuse.
            detail.drop(keepTried: true)
            detail.failure = why.message
            return false
        }
        guard case .show(let f) = dp.nextFrame() else { return false }
        detail.frame = f
        dp.close()
        detail.player = nil
        return true
    }
}

/// Vector pictures (SVG) drawn again, sharp, at the size they are shown.
extension MediaSession {
    /// The sharpest drawing there is for `rect`; asks for a new one when it is more than a
    /// tenth smaller than the picture on screen (a zoom, 1:1, a larger window).
    private func redrawnPicture(than shown: VideoFrame, shownAs rect: Rect) -> VideoFrame {
        let best = detail.frame.map { $0.width >= shown.width ? $0 : shown } ?? shown
        var (w, h) = (rect.width, rect.height)
        if transform.rotation % 180 != 0 { swap(&w, &h) }
        if Double(w) > Double(best.width) * 1.1 || Double(h) > Double(best.height) * 1.1 {
            detail.wantedSize = (w, h)
        }
        return best
    }

    /// Starts a drawing at the wanted size when none is under way, and takes the one that
    /// came; true when there is a sharper picture to draw.
    private func tickRedraw() -> Bool {
        if let size = detail.wantedSize, detail.player == nil, !detail.tried, let url = content.url,
           case .success(let resolved) = MediaView.resolve(url) {
            detail.wantedSize = nil
            var o = setup.openingOptions(url: url, resolved: resolved)
            o.targetSize = size
            o.audio = false
            let w = wake
            detail.player = Player(url: resolved, options: o, wake: { w() })
        }
        guard let dp = detail.player else { return false }
        if case .failed(let why) = dp.phase {
            // The drawing on screen stays; one that failed at this size would fail again.
            detail.player?.close()
            detail.player = nil
            detail.tried = true
            detail.failure = why.message
            return false
        }
        guard case .show(let f) = dp.nextFrame() else { return false }
        detail.frame = f
        dp.close()
        detail.player = nil
        return true
    }
}
