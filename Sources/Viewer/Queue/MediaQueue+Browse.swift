import Glibc
import Playback
import Web
import MediaCore

/// Browsing a long queue: adding many views at once, jumping to its ends, keeping the
/// item before the current one open, and sending the current file to the trash.
extension MediaQueue {
    /// Adds many views at once, in order. Views before `startIndex` go behind the current
    /// position, as if already seen (reachable with `presentPrevious` and
    /// `presentFirstItem`), and the one at `startIndex` is presented if nothing is: what
    /// opening one photo of a folder and browsing the rest needs.
    ///
    /// Unlike calling `queue(mediaView:)` in a loop, this costs time in proportion to the
    /// views added, so a folder of 100,000 files can be fed in batches without stalling.
    public func queue(mediaViews: [MediaView], startIndex: Int = 0) {
        // Taken out of `membership`, not copied: a set still held there would be copied
        // whole by the first insertion, for every batch of a million-file folder.
        var known = Set<ObjectIdentifier>()
        if membership != nil { swap(&known, &membership!) } else { known = Set((views + history).map(ObjectIdentifier.init)) }
        let fresh = mediaViews.filter { known.insert(ObjectIdentifier($0)).inserted }
        let start = min(max(0, startIndex), fresh.count)
        history += fresh[..<start]
        let hadNext = views.count >= 2
        views += fresh[start...]
        // Exactly what `views` and `history` hold now: the next batch need not rebuild it.
        membership = known
        for v in fresh[start...] { v.preloadIfWanted() }
        if current == nil {
            presentFirst()
        } else {
            if !hadNext && views.count >= 2 { prepare(views[1]) }
            preparePrevious()
        }
    }

    /// Presents the first item: the earliest one seen, or the current one if none was.
    public func presentFirstItem() {
        guard !history.isEmpty else { return }
        if let c = current {
            dismiss(c, keepInHistory: false)
            views.insert(c, at: 0)
        }
        views.insert(contentsOf: history, at: 0)
        history.removeAll()
        presentFirst()
    }

    /// Presents the last item of the queue; the ones it skips count as seen.
    public func presentLastItem() {
        guard views.count > 1, let c = current else { return }
        dismiss(c, keepInHistory: true)
        history += views.dropLast()
        views = Array(views.suffix(1))
        presentFirst()
    }

    /// Opens the item before the current one (paused) and lets go of the one that was
    /// previous before, so that going back shows a picture at once.
    func preparePrevious() {
        let wanted = history.last
        if let old = preparedPrevious, old !== wanted, old !== current, old !== prepared { old.releaseSession() }
        preparedPrevious = wanted
        guard let v = wanted, !v.isPrepared, let s = screen else { return }
        openAhead(v, on: s)
    }
}

/// `Delete` and `u`: the current file to the trash and back. The view leaves the queue
/// with its file and returns with it; web media is refused, since there is no file here.
extension MediaQueue {
    /// Moves the current view's file to the trash and presents the next item (or the one
    /// before, at the end of the queue). A refusal leaves everything as it was and tells
    /// the view's delegate why.
    public func trashCurrent() {
        guard let v = current, let url = v.mediaURL else { return }
        guard let path = Self.localPath(url) else {
            refuse(v, "cannot move \(SourceOptions.redacted(url)) to the trash: it is on the web, not a file on this computer")
            return
        }
        let item: Trash.Item
        do {
            item = try presentation.trash.moveToTrash(path: path)
        } catch {
            refuse(v, error.description)
            return
        }
        trashed.append((v, item))
        dismiss(v, keepInHistory: false)
        // The file is gone from where it was: its picture must not come back as a neighbour.
        v.releaseSession()
        if views.isEmpty, let previous = history.popLast() { views.append(previous) }
        v.notify { $0.mediaView(v, didMoveToTrash: item) }
        presentFirst()
        current?.showMessage("Moved \(FileName.display(Trash.lastComponent(item.originalPath))) to the trash (u brings it back)")
    }

    /// Brings back the file trashed last and presents it again.
    public func undoTrash() {
        guard let (v, item) = trashed.last else { return }
        do {
            try presentation.trash.restore(item)
        } catch {
            refuse(current ?? v, error.description)
            return
        }
        trashed.removeLast()
        v.notify { $0.mediaView(v, didRestoreFromTrash: item) }
        present(mediaView: v)
        v.showMessage("Brought back \(FileName.display(Trash.lastComponent(item.originalPath)))")
    }

    /// Tells the delegate the whole reason, and the user on screen why nothing moved: a
    /// desktop user who pressed Delete sees no terminal.
    private func refuse(_ v: MediaView, _ reason: String) {
        v.notify { $0.mediaView(v, didRefuseTrash: reason) }
        var why = reason
        if let r = reason.firstRange(of: "the trash: ") ?? reason.firstRange(of: ": ") { why = String(reason[r.upperBound...]) }
        let lead = reason.hasPrefix("cannot bring back") ? "Not brought back: " : "Not moved to the trash: "
        v.showMessage(lead + why, seconds: 4)
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