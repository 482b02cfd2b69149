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
    /// A video gets the worker that decodes its pictures, and with `sound` one for its sound;
    /// nothing starts for a song or a path that cannot be read.
    public func startAhead(for path: String, sound: Bool = true) {
        guard let kind = DecodeWorkers.kindAhead(for: path) else { return }
        // A video's container is read by a worker of its own before anything decodes.
        if kind == .media { startAhead(kind: .containers) }
        startAhead(kind: kind)
        // A video's sound takes a worker of its own, asked for right after the picture's.
        if kind == .media && sound {
            aheadCondition.withLock { ahead.soundAsked = true }
            startAhead(kind: kind, second: true)
        }
    }

    /// Lets go of the worker started ahead for a film's sound when the film plays none and
    /// nothing follows it in the queue: kept waiting, it would hold its memory for nothing.
    /// An idle worker goes at once, and the film's picture takes the one still starting.
    /// When none is idle yet (the film's header is often read before its workers are
    /// forked), the last of those starting goes as it arrives: the first is the picture's.
    func soundWorkerUnneeded() {
        guard !DecodeWorkers.startsWorkersForNextItem else { return }
        let asked = aheadCondition.withLock { () -> Bool in
            defer { ahead.soundAsked = false }
            return ahead.soundAsked
        }
        guard asked else { return }
        if let worker = takeIdle(.media) {
            retire(worker)
            return
        }
        aheadCondition.withLock {
            if ahead.starting[.media, default: 0] > 0 { ahead.surplus[.media, default: 0] += 1 }
        }
    }

    /// Starts a worker of `kind` on a thread of its own and keeps it waiting, unless one
    /// waits or is starting already; with `second`, unless two do.
    func startAhead(kind: WorkerKind, second: Bool = false) {
        let wanted = second ? 2 : 1
        let begins = aheadCondition.withLock { () -> Bool in
            let have = (ahead.starting[kind] ?? 0) + idle.withLock { $0.filter { $0.kind == kind }.count }
            guard have < wanted else { return false }
            ahead.starting[kind, default: 0] += 1
            return true
        }
        guard begins else { return }
        NamedThread.start(name: "worker-ahead") { [self] in
            let started = start(kind)
            let unneeded = aheadCondition.withLock { () -> Bool in
                let last = ahead.starting[kind, default: 1] <= 1
                ahead.starting[kind, default: 1] -= 1
                if ahead.starting[kind] == 0 { ahead.starting[kind] = nil }
                // Given back under the lock, so a still waiting for it finds it when it wakes.
                let surplus = last && ahead.surplus[kind, default: 0] > 0
                if surplus { ahead.surplus[kind] = nil }
                if case .success(let w)? = started, !surplus { give(back: w) }
                aheadCondition.broadcast()
                return surplus
            }
            if unneeded, case .success(let w)? = started { retire(w) }
        }
    }

    /// Waits while a worker of `kind` is being started ahead; its start has its own time
    /// limit, so this cannot wait longer than a start would.
    func waitForStartAhead(_ kind: WorkerKind) {
        aheadCondition.withLock {
            while ahead.starting[kind] != nil && idle.withLock({ !$0.contains { $0.kind == kind } }) {
                aheadCondition.wait()
            }
        }
    }

    /// The worker kind the still at `path` needs, or nil when it is not a still the worker
    /// takes. A local file's first bytes decide, read without blocking on a pipe or device.
    static func kindAhead(for path: String) -> WorkerKind? {
        if path.contains("://") {
            if videoExtensions.contains(StillFile.pathExtension(path)) { return .media }
            guard StillFile.namesStill(path) || StillFile.namesAnimation(path) else { return nil }
            let drawn = ["svg", "svgz", "avif", "heic", "heif", "jxl"], jpeg = ["jpg", "jpeg", "jpe", "jfif"]
            let ext = StillFile.pathExtension(path)
            return drawn.contains(ext) ? .drawings : jpeg.contains(ext) ? .jpegs : .photos
        }
        guard let file = StillFile.openRegular(path) else { return nil }
        close(file.fd)
        if isVideo(file.head) && !StillFile.isStill(file.head, name: path) { return .media }
        guard StillFile.isStill(file.head, name: path) || StillFile.isAnimation(file.head) else { return nil }
        return WorkerKind.forDecode(file.head, name: path)
    }

    /// What web addresses of videos end in.
    static let videoExtensions: Set<String> = ["mp4", "m4v", "mkv", "webm", "mov", "avi", "ts", "m2ts", "flv", "ogv"]

    /// Whether a file starting with `head` is in a video container: MP4 or QuickTime (but not
    /// an M4A song), Matroska or WebM, AVI, MPEG-TS. A still in an ISO box (AVIF, HEIC) is
    /// told apart by the caller first.
    static func isVideo(_ head: [UInt8]) -> Bool {
        guard head.count >= 12 else { return false }
        let box = Array(head[4..<8]), brand = String(decoding: head[8..<12], as: UTF8.self)
        if box == Array("ftyp".utf8) { return !brand.hasPrefix("M4A") && !brand.hasPrefix("M4B") }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }
        if head.starts(with: Array("RIFF".utf8)) { return Array(head[8..<12]) == Array("AVI ".utf8) }
        return head[0] == 0x47 && head.count > 188 && head[188] == 0x47
    }
}

/// The workers a pool is starting ahead, and what becomes of them as they arrive.
struct AheadStarts {
    /// How many of each kind are being started right now: a still asked for meanwhile waits
    /// for one rather than starting another beside them.
    var starting: [WorkerKind: Int] = [:]
    /// Whether a second media worker was asked for a film's sound and not yet let go.
    var soundAsked = false
    /// Kinds whose last worker starting is to be let go as it arrives: the one started for a
    /// film's sound that the film turned out not to need.
    var surplus: [WorkerKind: Int] = [:]
}
