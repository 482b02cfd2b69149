import MediaCore
import Playback
import Viewer

/// Resume for every item: when long video or audio opens, it jumps to where it was left
/// and says so on screen; when it leaves the screen (or the program ends), where it was is
/// remembered, and an item played to its end is forgotten. One recorder hears all items,
/// each keyed by its source's absolute path or URL.
@MainActor
final class ResumeRecorder: MediaViewDelegate {
    let store: ResumeStore
    /// Shorter media just starts over: it is quicker to watch again than to find a place in.
    static let minimumDuration = 120.0
    /// Closer than this to either end, starting over is what the user wants.
    static let margin = 10.0

    init(store: ResumeStore) {
        self.store = store
    }

    /// What the key of `v`'s place is made from: its source's absolute path, or its URL.
    private func source(_ v: MediaView) -> String {
        ViewerApp.absoluteInput(v.mediaURL ?? "")
    }

    private func qualifies(_ v: MediaView) -> Double? {
        guard let info = v.info, info.kind == .video || info.kind == .audio,
              let d = info.duration, d > Self.minimumDuration else { return nil }
        return d
    }

    func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int)) {
        guard let d = qualifies(mediaView), let p = store.position(for: source(mediaView)),
              p > Self.margin, p < d - Self.margin else { return }
        mediaView.seek(to: p)
        mediaView.showMessage("Resumed at \(MediaView.formatTime(p, longest: d))")
    }

    func willDismiss(mediaView: MediaView) { remember(mediaView) }

    func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool) {
        if qualifies(mediaView) != nil { store.record(nil, for: source(mediaView)) }
    }

    /// Stores where `v` is now (or forgets it near either end).
    func remember(_ v: MediaView) {
        guard let d = qualifies(v) else { return }
        let p = v.position
        if !store.record(p > Self.margin && p < d - Self.margin ? p : nil, for: source(v)) {
            StandardError.write("mediaview: cannot save the resume position in \(store.path)")
        }
    }
}
