import Glibc
import MediaCore

/// A worker started while the program itself starts.
///
/// A worker's start (the dynamic linker resolving its libraries, then the confinement) took
/// about 0.12 s, and the first picture of a launch waited for all of it after the viewer's
/// own start and window: `mediaview photo.png` to its first frame took twice as long as
/// with `--sandbox=off`. Started from the first moment, the worker gets ready while the
/// viewer connects to the display and maps its window.
extension DecodeWorkers {
    /// Starts, on a thread of its own, the worker that the still at `path` (a file, or a web
    /// address whose path ends in a picture's extension) will need, and keeps it waiting.
    /// Nothing starts for video, sound or a path that cannot be read.
    public func startAhead(for path: String) {
        guard let kind = DecodeWorkers.kindAhead(for: path) else { return }
        startAhead(kind: kind)
    }

    /// Starts a worker of `kind` on a thread of its own and keeps it waiting, unless one
    /// waits or is starting already.
    func startAhead(kind: WorkerKind) {
        let begins = aheadCondition.withLock { () -> Bool in
            guard !kindsStartingAhead.contains(kind), idle.withLock({ !$0.contains { $0.kind == kind } }) else { return false }
            kindsStartingAhead.insert(kind)
            return true
        }
        guard begins else { return }
        NamedThread.start(name: "worker-ahead") { [self] in
            if case .success(let w)? = start(kind) { give(back: w) }
            aheadCondition.withLock {
                kindsStartingAhead.remove(kind)
                aheadCondition.broadcast()
            }
        }
    }

    /// Waits while a worker of `kind` is being started ahead; its start has its own time
    /// limit, so this cannot wait longer than a start would.
    func waitForStartAhead(_ kind: WorkerKind) {
        aheadCondition.withLock {
            while kindsStartingAhead.contains(kind) { aheadCondition.wait() }
        }
    }

    /// The worker kind the still at `path` needs, or nil when it is not a still the worker
    /// takes. A local file's first bytes decide, read without blocking on a pipe or device.
    static func kindAhead(for path: String) -> WorkerKind? {
        if path.contains("://") {
            guard StillFile.namesStill(path) || StillFile.namesAnimation(path) else { return nil }
            let drawn = ["svg", "svgz", "avif", "heic", "heif", "jxl"]
            return drawn.contains(StillFile.pathExtension(path)) ? .drawings : .photos
        }
        guard let file = StillFile.openRegular(path) else { return nil }
        close(file.fd)
        guard StillFile.isStill(file.head, name: path) || StillFile.isAnimation(file.head) else { return nil }
        return WorkerKind.forStill(file.head, name: path)
    }
}
