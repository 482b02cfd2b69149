import MediaCore
import Playback
import Viewer

/// Resume for one item: when long video or audio opens, it jumps to where it was left
/// and says so on screen; when it leaves the screen (or the program ends), where it was is
/// remembered, and an item played to its end is forgotten.
@MainActor
final class ResumeRecorder: MediaViewDelegate {
    let store: ResumeStore
    /// The source's path (absolute) or URL: what the key is made from.
    let source: String
    /// Shorter media just starts over: it is quicker to watch again than to find a place in.
    static let minimumDuration = 120.0
    /// Closer than this to either end, starting over is what the user wants.
    static let margin = 10.0

    init(store: ResumeStore, source: String) {
        self.store = store
        self.source = source
    }

    private func qualifies(_ v: MediaView) -> Double? {
        guard let info = v.info, info.kind == .video || info.kind == .audio,
              let d = info.duration, d > Self.minimumDuration else { return nil }
        return d
    }

    func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int)) {
        guard let d = qualifies(mediaView), let p = store.position(for: source),
              p > Self.margin, p < d - Self.margin else { return }
        mediaView.seek(to: p)
        mediaView.showMessage("Resumed at \(MediaView.formatTime(p, longest: d))")
    }

    func willDismiss(mediaView: MediaView) { remember(mediaView) }

    func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool) {
        if qualifies(mediaView) != nil { store.record(nil, for: source) }
    }

    /// Stores where `v` is now (or forgets it near either end).
    func remember(_ v: MediaView) {
        guard let d = qualifies(v) else { return }
        let p = v.position
        if !store.record(p > Self.margin && p < d - Self.margin ? p : nil, for: source) {
            StandardError.write("mediaview: cannot save the resume position in \(store.path)")
        }
    }
}
