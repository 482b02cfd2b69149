import Glibc
import MediaCore

/// A photo's first look asked of the worker that then decodes the photo: the small
/// picture's JPEG is as untrusted as the photo's, so it is decoded behind the same walls.
extension DecodeWorkers {
    /// Sends `decode` again as a `glance` request (the same sealed bytes) and hands the small
    /// picture to `show`. A photo without one goes on to its decode; a worker that stopped
    /// on it fails the item, as it would have on the photo, and a closed item ends there.
    func firstLook(_ decode: WorkerMessage, from worker: DecodeWorker, name: String, allowed: FirstLook.Allowed,
                   cancelled: (() -> Bool)?, to show: (WorkerPicture) -> Void) throws(AVError) {
        var request = decode
        request.kind = .glance
        request.numbers.append(allowed == .thumbnailOrEighth ? 1 : 0)
        let m = try answer(worker.exchange(request, timeout: timeout, cancelled: cancelled), worker: worker, name: name)
        guard m.kind == .picture else {
            if m.fd >= 0 { close(m.fd) }
            return
        }
        guard let picture = WorkerPicture(m) else { return }
        glanced.add(1, ordering: .relaxed)
        show(picture)
    }
}
