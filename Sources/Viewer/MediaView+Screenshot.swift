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
        s.detail.wanted = true
        wake()
        return true
    }
}

extension MediaQueue {
    /// Saves the presented view's picture into `presentation.screenshotDirectory` as
    /// `mediaview-YYYY-MM-DD_HH-MM-SS.png` (`-2`, `-3`... within one second) and says so
    /// on screen; any problem is said on screen instead.
    func saveScreenshot() {
        // A big photo shows a reduced decode; the file gets the full one, a moment later.
        current?.withFullSizePicture { [weak self] v in
            guard let self, self.current === v else { return }
            self.saveScreenshot(of: v)
        }
    }

    private func saveScreenshot(of v: MediaView) {
        guard let dir = presentation.screenshotDirectory else {
            v.showMessage("No folder for screenshots")
            return
        }
        guard let png = v.pictureAsPNG() else {
            v.showMessage("No picture to save")
            return
        }
        let base = dir + "/mediaview-" + Self.timestamp()
        for n in 1...99 {
            let path = base + (n == 1 ? "" : "-\(n)") + ".png"
            // O_EXCL: never overwrites a picture already there.
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 && errno == EEXIST { continue }
            guard fd >= 0 else { break }
            let written = png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            guard written == png.count else {
                unlink(path)
                break
            }
            v.showMessage("Saved " + (path.split(separator: "/").last.map(String.init) ?? path))
            v.notify { $0.mediaView(v, didSaveScreenshot: path) }
            return
        }
        v.showMessage("Cannot save a screenshot in \(dir)")
    }

    /// Local time as `2026-12-01_10-34-05`: sorts by time and is safe in any file system.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%d_%H-%M-%S", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
