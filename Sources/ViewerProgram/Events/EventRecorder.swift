import MediaCore
import Playback
import Viewer

/// Turns every delegate callback into one line of the `--events` log and every failure into
/// one line on stderr.
@MainActor
final class EventRecorder: MediaViewDelegate {
    let log: EventLog?
    /// Set once any item failed, for the exit status.
    static var anyFailed = false

    /// One recorder for every item: each line names the item by its `tag` (the order it
    /// was made in) and its source.
    init(log: EventLog?) {
        self.log = log
    }

    private func emit(_ event: String, _ v: MediaView, _ extra: [(String, JSONValue)] = []) {
        guard let log else { return }
        log.log(event, [("index", .int(v.tag)), ("source", .string(SourceOptions.redacted(v.mediaURL ?? "")))] + extra)
    }

    func willPresent(mediaView: MediaView) { emit("will_present", mediaView) }
    func didPresent(mediaView: MediaView) { emit("presented", mediaView) }
    func willDismiss(mediaView: MediaView) { emit("will_dismiss", mediaView) }
    /// The first picture on screen: start-up and next-item latency in `make bench`, and how
    /// much of a web picture had come by then.
    func didShowFirstFrame(for mediaView: MediaView) {
        emit("first_frame", mediaView, [("buffered", .double(mediaView.bufferedFraction))])
    }
    /// A photo's small picture on screen before the photo: time to the first changed pixel.
    func didShowFirstLook(for mediaView: MediaView) { emit("first_look", mediaView) }
    func didDismiss(mediaView: MediaView) { emit("dismissed", mediaView) }
    func didPlayMedia(for mediaView: MediaView) { emit("played", mediaView, [("position", .double(mediaView.position))]) }
    func didPauseMedia(for mediaView: MediaView) { emit("paused", mediaView, [("position", .double(mediaView.position))]) }

    func didFailToPlayMedia(for mediaView: MediaView, error: MediaError) {
        EventRecorder.anyFailed = true
        StandardError.write("mediaview: \(error.message)")
        emit("failed", mediaView, [("reason", .string(error.message))])
    }

    func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool) {
        emit("finished", mediaView, [("loop", .bool(didLoop))])
    }

    func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int)) {
        var fields: [(String, JSONValue)] = [("width", .int(size.width)), ("height", .int(size.height))]
        if let i = mediaView.info {
            fields.append(("kind", .string(i.kind.rawValue)))
            if let d = i.duration { fields.append(("duration", .double(d))) }
        }
        emit("loaded", mediaView, fields)
    }

    /// A preview's wait and its end: the latency of track previews in `make bench`.
    func mediaView(_ mediaView: MediaView, didHoverTrackAt position: Double) {
        emit("track_hover", mediaView, [("position", .double(position))])
    }
    func mediaView(_ mediaView: MediaView, didShowTrackPreviewAt position: Double, waited: Double) {
        emit("track_preview", mediaView, [("position", .double(position)), ("waited", .double(waited))])
    }

    /// Zoomed detail sharp on screen, and each frame of a drag that pans: the gigapixel rows
    /// of `make bench`.
    func mediaView(_ mediaView: MediaView, didShowDetailAfter waited: Double) {
        emit("detail_sharp", mediaView, [("waited", .double(waited))])
    }
    func mediaViewDidPan(_ mediaView: MediaView) { emit("panned", mediaView) }

    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: Double) {
        emit("offset", mediaView, [("progress", .double(offsetPercentage))])
    }
    func willChangeMinimization(for mediaView: MediaView) { emit("will_change_minimization", mediaView) }
    func didChangeMinimization(for mediaView: MediaView) { emit("did_change_minimization", mediaView) }
    func willEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) {
        emit("will_end_minimizing", mediaView, [("minimized", .bool(isMinimized))])
    }
    func didEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) {
        emit("did_end_minimizing", mediaView, [("minimized", .bool(isMinimized))])
    }
    func willChangeDismissing(for mediaView: MediaView) { emit("will_change_dismissing", mediaView) }
    func didChangeDismissing(for mediaView: MediaView) { emit("did_change_dismissing", mediaView) }
    func willEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool) {
        emit("will_end_dismissing", mediaView, [("dismissed", .bool(didDismiss))])
    }
    func didEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool) {
        emit("did_end_dismissing", mediaView, [("dismissed", .bool(didDismiss))])
    }
    func mediaView(_ mediaView: MediaView, didDownloadImage path: String) { downloaded("image", mediaView, path) }
    func mediaView(_ mediaView: MediaView, didDownloadVideo path: String) { downloaded("video", mediaView, path) }
    func mediaView(_ mediaView: MediaView, didDownloadAudio path: String) { downloaded("audio", mediaView, path) }
    func mediaView(_ mediaView: MediaView, didDownloadGif path: String) { downloaded("gif", mediaView, path) }
    private func downloaded(_ kind: String, _ mediaView: MediaView, _ path: String) {
        emit("downloaded", mediaView, [("kind", .string(kind)), ("path", .string(path))])
    }
    func mediaViewWillRotate(_ mediaView: MediaView) { emit("will_rotate", mediaView, [("rotation", .int(mediaView.userRotation))]) }
    func mediaViewDidRotate(_ mediaView: MediaView) { emit("did_rotate", mediaView, [("rotation", .int(mediaView.userRotation))]) }
    func mediaView(_ mediaView: MediaView, didSaveScreenshot path: String) { emit("screenshot", mediaView, [("path", .string(path))]) }
    func handleTitleSelection(in mediaView: MediaView) { emit("title_selected", mediaView) }
    func handleDetailsSelection(in mediaView: MediaView) { emit("details_selected", mediaView) }
    func mediaView(_ mediaView: MediaView, didMoveToTrash item: Trash.Item) {
        emit("trashed", mediaView, [("path", .string(item.originalPath)), ("trashinfo", .string(item.infoPath))])
    }
    func mediaView(_ mediaView: MediaView, didRestoreFromTrash item: Trash.Item) {
        emit("restored", mediaView, [("path", .string(item.originalPath))])
    }
    /// A refusal is the user's own action failing: one line on stderr, but the run is not
    /// a failure for the exit status.
    func mediaView(_ mediaView: MediaView, didRefuseTrash reason: String) {
        StandardError.write("mediaview: \(reason)")
        emit("trash_refused", mediaView, [("reason", .string(reason))])
    }
}
