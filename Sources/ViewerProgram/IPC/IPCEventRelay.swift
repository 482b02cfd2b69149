import Viewer

/// Hears one view's callbacks and turns them into mpv's events for every IPC client:
/// `start-file`, `file-loaded`, `end-file`, `pause`, `unpause`, `seek`, and the
/// `property-change` events they cause.
///
/// A relay of its own per view, held by the view, so the controller is not kept alive by
/// the views nor they by it.
@MainActor
final class IPCEventRelay: MediaViewDelegate {
    weak var controller: IPCController?

    init(controller: IPCController) { self.controller = controller }

    private func send(_ name: String, _ view: MediaView, _ fields: [String: JSONValue] = [:]) {
        guard let c = controller else { return }
        var all = fields
        if let id = c.entryIDs[ObjectIdentifier(view)] { all["playlist_entry_id"] = .int(id) }
        c.server.broadcast(IPCRequest.event(name, all))
        c.checkObservations()
    }

    func willPresent(mediaView: MediaView) {
        controller?.finished.remove(ObjectIdentifier(mediaView))
        send("start-file", mediaView)
    }

    func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int)) {
        send("file-loaded", mediaView)
    }

    func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool) {
        if !didLoop { controller?.finished.insert(ObjectIdentifier(mediaView)) }
    }

    func didDismiss(mediaView: MediaView) {
        if let failure = mediaView.failure {
            send("end-file", mediaView, ["reason": "error", "file_error": .string(failure.message)])
        } else {
            let eof = controller?.finished.contains(ObjectIdentifier(mediaView)) ?? false
            send("end-file", mediaView, ["reason": .string(eof ? "eof" : "stop")])
        }
    }

    func didPauseMedia(for mediaView: MediaView) { send("pause", mediaView) }
    func didPlayMedia(for mediaView: MediaView) { send("unpause", mediaView) }
    func mediaView(_ mediaView: MediaView, didSeekTo position: Double) { send("seek", mediaView) }
    func willChangeMinimization(for mediaView: MediaView) { controller?.checkObservations() }
    func didEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) { controller?.checkObservations() }
}
