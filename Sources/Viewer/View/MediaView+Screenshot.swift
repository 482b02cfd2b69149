import Dispatch
import Glibc
import Playback

/// Screenshots: the picture on screen at the media's own resolution, upright and turned as
/// the user turned it, as a PNG file named by the time it was taken.
extension MediaView {
    /// The picture on screen as PNG bytes: the full-size decode of a zoomed still when
    /// there is one, else the decoded frame. Nil while there is no picture (sound only,
    /// still loading, failed).
    public func pictureAsPNG() -> [UInt8]? {
        guard let s = session, let f = s.detail.frame ?? s.frame else { return nil }
        return PNGEncoder.encode(f, rotation: s.transform.rotation)
    }

    /// Runs `body` once the picture on screen is at full size: at once, or, while a big
    /// photo's full-size decode is on the way, a moment later (if the view is still there).
    func withFullSizePicture(attempt: Int = 0, _ body: @escaping @MainActor (MediaView) -> Void) {
        guard attempt < 200, awaitsFullSizePicture() else { return body(self) }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { [weak self] in
            MainActor.assumeIsolated { self?.withFullSizePicture(attempt: attempt + 1, body) }
        }
    }

    /// Whether the still on screen was decoded smaller than it is (a big photo in a small
    /// window) and its full-size decode is on the way; asks for that decode if not yet.
    func awaitsFullSizePicture() -> Bool {
        guard let s = session, let info = s.info, info.kind == .image, s.detail.frame == nil,
              let f = s.frame, f.width * f.height < info.width * info.height else { return false }
        // Tried and given up (the file changed since): the small picture is what there is.
        if s.detail.tried && s.detail.player == nil { return false }
        s.wantFullSizePicture()
        wake()
        return true
    }
}
