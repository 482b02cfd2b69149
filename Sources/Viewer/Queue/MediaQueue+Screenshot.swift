import Dispatch
import Glibc
import Playback

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
