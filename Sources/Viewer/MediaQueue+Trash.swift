import Glibc
import Playback

/// `Delete` and `u`: the current file to the trash and back. The view leaves the queue
/// with its file and returns with it; web media is refused, since there is no file here.
extension MediaQueue {
    /// Moves the current view's file to the trash and presents the next item (or the one
    /// before, at the end of the queue). A refusal leaves everything as it was and tells
    /// the view's delegate why.
    public func trashCurrent() {
        guard let v = current, let url = v.mediaURL else { return }
        guard let path = Self.localPath(url) else {
            v.notify { $0.mediaView(v, didRefuseTrash: "cannot move \(SourceOptions.redacted(url)) to the trash: it is on the web, "
                + "not a file on this computer") }
            return
        }
        let item: Trash.Item
        do {
            item = try presentation.trash.moveToTrash(path: path)
        } catch {
            v.notify { $0.mediaView(v, didRefuseTrash: error.description) }
            return
        }
        trashed.append((v, item))
        dismiss(v, keepInHistory: false)
        // The file is gone from where it was: its picture must not come back as a neighbour.
        v.releaseSession()
        if views.isEmpty, let previous = history.popLast() { views.append(previous) }
        v.notify { $0.mediaView(v, didMoveToTrash: item) }
        presentFirst()
    }

    /// Brings back the file trashed last and presents it again.
    public func undoTrash() {
        guard let (v, item) = trashed.last else { return }
        do {
            try presentation.trash.restore(item)
        } catch {
            v.notify { $0.mediaView(v, didRefuseTrash: error.description) }
            return
        }
        trashed.removeLast()
        v.notify { $0.mediaView(v, didRestoreFromTrash: item) }
        present(mediaView: v)
    }

    /// The file a view shows, or nil for web media.
    static func localPath(_ url: String) -> String? {
        if SourceOptions.isNetwork(url) { return nil }
        if url.lowercased().hasPrefix("file://") {
            guard case .success(let resolved) = MediaView.resolve(url) else { return nil }
            return String(resolved.dropFirst("file:".count))
        }
        return url
    }
}
