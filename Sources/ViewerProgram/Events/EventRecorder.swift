import MediaCore
import Playback
import Viewer

/// Turns every delegate callback into one line of the `--events` log and every failure into
/// one line on stderr.
@MainActor
final class EventRecorder: MediaViewDelegate {
    let log: EventLog?
    let index: Int
    let source: String
    /// Set once any item failed, for the exit status.
    static var anyFailed = false

    init(log: EventLog?, index: Int, source: String) {
        self.log = log
        self.index = index
        self.source = source
    }

    private func emit(_ event: String, _ extra: [(String, JSONValue)] = []) {
        log?.log(event, [("index", .int(index)), ("source", .string(source))] + extra)
    }

    func willPresent(mediaView: MediaView) { emit("will_present") }
    func didPresent(mediaView: MediaView) { emit("presented") }
    func willDismiss(mediaView: MediaView) { emit("will_dismiss") }
    /// The first picture on screen: start-up and next-item latency in `make bench`.
    func didShowFirstFrame(for mediaView: MediaView) { emit("first_frame") }
    func didDismiss(mediaView: MediaView) { emit("dismissed") }
    func didPlayMedia(for mediaView: MediaView) { emit("played", [("position", .double(mediaView.position))]) }
    func didPauseMedia(for mediaView: MediaView) { emit("paused", [("position", .double(mediaView.position))]) }

    func didFailToPlayMedia(for mediaView: MediaView, error: MediaError) {
        EventRecorder.anyFailed = true
        StandardError.write("mediaview: \(error.message)")
        emit("failed", [("reason", .string(error.message))])
    }

    func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool) {
        emit("finished", [("loop", .bool(didLoop))])
    }

    func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int)) {
        var fields: [(String, JSONValue)] = [("width", .int(size.width)), ("height", .int(size.height))]
        if let i = mediaView.info {
            fields.append(("kind", .string(i.kind.rawValue)))
            if let d = i.duration { fields.append(("duration", .double(d))) }
        }
        emit("loaded", fields)
    }

    /// A preview's wait and its end: the latency of track previews in `make bench`.
    func mediaView(_ mediaView: MediaView, didHoverTrackAt position: Double) {
        emit("track_hover", [("position", .double(position))])
    }
    func mediaView(_ mediaView: MediaView, didShowTrackPreviewAt position: Double, waited: Double) {
        emit("track_preview", [("position", .double(position)), ("waited", .double(waited))])
    }

    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: Double) {
        emit("offset", [("progress", .double(offsetPercentage))])
    }
    func willChangeMinimization(for mediaView: MediaView) { emit("will_change_minimization") }
    func didChangeMinimization(for mediaView: MediaView) { emit("did_change_minimization") }
    func willEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) {
        emit("will_end_minimizing", [("minimized", .bool(isMinimized))])
    }
    func didEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) {
        emit("did_end_minimizing", [("minimized", .bool(isMinimized))])
    }
    func willChangeDismissing(for mediaView: MediaView) { emit("will_change_dismissing") }
    func didChangeDismissing(for mediaView: MediaView) { emit("did_change_dismissing") }
    func willEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool) {
        emit("will_end_dismissing", [("dismissed", .bool(didDismiss))])
    }
    func didEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool) {
        emit("did_end_dismissing", [("dismissed", .bool(didDismiss))])
    }
    func mediaView(_ mediaView: MediaView, didDownloadImage path: String) { downloaded("image", path) }
    func mediaView(_ mediaView: MediaView, didDownloadVideo path: String) { downloaded("video", path) }
    func mediaView(_ mediaView: MediaView, didDownloadAudio path: String) { downloaded("audio", path) }
    func mediaView(_ mediaView: MediaView, didDownloadGif path: String) { downloaded("gif", path) }
    private func downloaded(_ kind: String, _ path: String) {
        emit("downloaded", [("kind", .string(kind)), ("path", .string(path))])
    }
    func mediaViewWillRotate(_ mediaView: MediaView) { emit("will_rotate", [("rotation", .int(mediaView.userRotation))]) }
    func mediaViewDidRotate(_ mediaView: MediaView) { emit("did_rotate", [("rotation", .int(mediaView.userRotation))]) }
    func mediaView(_ mediaView: MediaView, didSaveScreenshot path: String) { emit("screenshot", [("path", .string(path))]) }
    func handleTitleSelection(in mediaView: MediaView) { emit("title_selected") }
    func handleDetailsSelection(in mediaView: MediaView) { emit("details_selected") }
    func mediaView(_ mediaView: MediaView, didMoveToTrash item: Trash.Item) {
        emit("trashed", [("path", .string(item.originalPath)), ("trashinfo", .string(item.infoPath))])
    }
    func mediaView(_ mediaView: MediaView, didRestoreFromTrash item: Trash.Item) {
        emit("restored", [("path", .string(item.originalPath))])
    }
    /// A refusal is the user's own action failing: one line on stderr, but the run is not
    /// a failure for the exit status.
    func mediaView(_ mediaView: MediaView, didRefuseTrash reason: String) {
        StandardError.write("mediaview: \(reason)")
        emit("trash_refused", [("reason", .string(reason))])
    }
}
