import Playback
import Windowing

/// Full-size pictures for zoomed stills.
///
/// A large photo is decoded at a reduced size that still covers the window (JPEG's DCT
/// scaling): that is what makes its first picture fast. Zoomed in, shown 1:1, or in a
/// window that grew, it would show those few pixels blown up; so the first time it is drawn
/// larger than it was decoded, a second player decodes it at full size and that picture is
/// used from then on wherever the small one is not enough, as image viewers do.
extension MediaView {
    /// The picture to scale into `rect`: the full-size one when the small `frame` would be
    /// enlarged and a full-size one exists; otherwise `frame`, noting the wish for one.
    func sharperPicture(than frame: VideoFrame, shownAs rect: Rect) -> VideoFrame {
        guard frame === lastFrame, let info, info.kind == .image else { return frame }
        let (w, h) = frame.displaySize
        let decoded = Double(w * h), shown = Double(rect.width * rect.height)
        guard shown > decoded * 1.1, Double(info.width * info.height) > decoded * 1.1 else { return frame }
        if let d = detailFrame { return d }
        wantsDetail = true
        return frame
    }

    /// Starts the full-size decode when one is wanted and takes its picture when it comes;
    /// true when there is a sharper picture to draw.
    func tickDetail() -> Bool {
        // Tried once: a file gone or damaged since keeps its small picture, quietly.
        if wantsDetail, !detailTried, detailPlayer == nil, let url = mediaURL {
            detailTried = true
            if case .success(let resolved) = MediaView.resolve(url) {
                var o = openingOptions(url: url, resolved: resolved)
                o.targetSize = nil
                o.audio = false
                let w = wake
                detailPlayer = Player(url: resolved, options: o, wake: { w() })
            }
        }
        wantsDetail = false
        guard let dp = detailPlayer else { return false }
        if case .failed = dp.phase {
            // The small picture stays; a second failure message would only confuse.
            dropDetail(keepTried: true)
            return false
        }
        guard case .show(let f) = dp.nextFrame() else { return false }
        detailFrame = f
        dp.close()
        detailPlayer = nil
        return true
    }

    /// Lets go of the full-size decode and its picture (~4 bytes a pixel).
    func dropDetail(keepTried: Bool = false) {
        detailPlayer?.close()
        detailPlayer = nil
        detailFrame = nil
        wantsDetail = false
        detailTried = keepTried
    }
}
