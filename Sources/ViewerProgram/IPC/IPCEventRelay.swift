import MediaCore
import Playback
import Viewer

/// Hears the views' callbacks and turns them into mpv's events for every IPC client:
/// `start-file`, `end-file`, `pause`, `unpause`, `seek`. What no callback reports comes
/// from `IPCController.watch()`.
///
/// One relay for every view, held by the views, so the controller is not kept alive by
/// the views nor they by it. Only the presented view speaks: the one opened ahead of time
/// says nothing until it is on screen.
@MainActor
final class IPCEventRelay: MediaViewDelegate {
    weak var controller: IPCController?

    init(controller: IPCController) { self.controller = controller }

    private func send(_ name: String, _ view: MediaView, _ fields: [String: JSONValue] = [:]) {
        guard let c = controller else { return }
        c.broadcast(name, fields.merging(c.entryFields(view)) { a, _ in a })
        c.checkObservations()
    }

    private func isPresented(_ view: MediaView) -> Bool { controller?.queue.current === view }

    func willPresent(mediaView: MediaView) {
        controller?.finished.remove(ObjectIdentifier(mediaView))
        send("start-file", mediaView)
        // A view opened ahead of time is loaded already: say so at once, in order.
        controller?.watch()
    }

    func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int)) {
        if isPresented(mediaView) { controller?.watch() }
    }

    func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool) {
        if !didLoop { controller?.finished.insert(ObjectIdentifier(mediaView)) }
    }

    func didDismiss(mediaView: MediaView) {
        let id = ObjectIdentifier(mediaView)
        controller?.announced.seeks[id] = nil
        if controller?.announced.loaded == id { controller?.announced.loaded = nil }
        if let failure = mediaView.failure {
            send("end-file", mediaView, ["reason": "error", "file_error": .string(failure.message)])
        } else {
            let eof = controller?.finished.contains(id) ?? false
            send("end-file", mediaView, ["reason": .string(eof ? "eof" : "stop")])
        }
    }

    func didPauseMedia(for mediaView: MediaView) {
        if isPresented(mediaView) { send("pause", mediaView) }
    }

    func didPlayMedia(for mediaView: MediaView) {
        if isPresented(mediaView) { send("unpause", mediaView) }
    }

    func mediaView(_ mediaView: MediaView, didSeekTo position: Double) {
        guard let c = controller, isPresented(mediaView) else { return }
        c.announced.seeks[ObjectIdentifier(mediaView)] = (position, MonotonicClock.seconds())
        send("seek", mediaView)
        c.startWatching()
    }

    func willChangeMinimization(for mediaView: MediaView) { controller?.checkObservations() }
    func didEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) { controller?.checkObservations() }
}
