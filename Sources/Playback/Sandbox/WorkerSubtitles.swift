import FoundationEssentials
import Glibc
import MediaCore
import Subtitles

/// A player's subtitles drawn by a sandboxed worker: libass with HarfBuzz and FreeType parse
/// the script's styles and text and draw its glyphs there, and only coverage masks come back.
///
/// The worker keeps each track's header and events; this side sends what the demux thread
/// decoded since the last frame, asks for each frame's images and reads them from the
/// worker's image memfd, mapped once. Used by the thread that draws the player.
final class WorkerSubtitles {
    private let pool: DecodeWorkers
    private let worker: DecodeWorker
    /// Events sent so far, by track.
    private var sent: [Int: Int] = [:]
    private var mapping: SubtitleImages.Mapping?
    /// The last frame's images, drawn again while the worker says nothing changed, or while
    /// the answer for a newer frame has not come.
    private var images: [SubtitleImages.Placed] = []
    /// When the frame awaiting its answer was asked for (monotonic seconds); nil when none is.
    private var asked: Double?
    /// Seconds a frame may take before the worker is taken to hang: the first line in a new
    /// font opens it.
    static let drawTime = 2.0
    /// Seconds the drawing thread waits for a frame's images before it draws the last ones
    /// and looks again at the next frame: libass answers in well under a millisecond, so
    /// only a new font or a hung worker is ever late, and neither stops the video.
    static let frameWait = 0.05

    init(worker: DecodeWorker, pool: DecodeWorkers) {
        self.worker = worker
        self.pool = pool
    }

    deinit { pool.retire(worker) }

    /// Hands `draw` the images of track `id` due at `seconds` for a video `width` x `height`
    /// pixels large, text `fontScale` times the script's size; `news` gives the track's
    /// header and its events from an index on. Waits at most `wait` seconds for them; when
    /// they are late, the last frame's images are drawn and the answer is taken at a later
    /// call. Throws the one line when the worker stopped, answered nonsense or took over
    /// `drawTime` for a frame; it is then gone.
    func render(track id: Int, at seconds: Double, width: Int, height: Int, fontScale: Double, wait: Double = frameWait,
                news: (Int) -> (header: String, cues: [SubtitleCue]), _ draw: (SubtitleBitmap) -> Void) throws(AVError) {
        guard width > 0, height > 0, seconds.isFinite, id > 0 else { return }
        // Only the frame that asks waits; while its answer is late, later frames only look.
        let asking = asked == nil
        if asking {
            try ask(track: id, at: seconds, width: width, height: height, fontScale: fontScale, news: news)
        }
        try collect(within: asking ? wait : 0)
        guard let mapping else { return }
        for p in images {
            draw(SubtitleBitmap(mask: mapping.base + p.offset, width: p.width, height: p.height, stride: p.width, x: p.x, y: p.y,
                                red: UInt8(p.color >> 24), green: UInt8((p.color >> 16) & 0xFF),
                                blue: UInt8((p.color >> 8) & 0xFF), alpha: UInt8(p.color & 0xFF)))
        }
    }

    /// Whether a frame was drawn without the images it asked for, which have not been taken.
    var owesImages: Bool { asked != nil }

    /// Whether the images owed can be taken now: they came, or the frame has had its
    /// `drawTime` (and taking them ends the worker with its line).
    var owedImagesReady: Bool {
        guard let since = asked else { return false }
        return worker.hasMessage || MonotonicClock.seconds() - since > Self.drawTime
    }

    /// Sends the track's header and new events, then asks for the frame at `seconds`.
    private func ask(track id: Int, at seconds: Double, width: Int, height: Int, fontScale: Double,
                     news: (Int) -> (header: String, cues: [SubtitleCue])) throws(AVError) {
        let new = news(sent[id] ?? 0)
        if sent[id] == nil {
            try post(.subtitleTrack, track: id, Array(new.header.utf8))
            sent[id] = 0
        }
        if !new.cues.isEmpty {
            guard let json = try? JSONEncoder().encode(new.cues) else { return }
            try post(.subtitleEvents, track: id, Array(json))
            sent[id, default: 0] += new.cues.count
        }
        let ms = Int64(max(-1e12, min(seconds * 1000, 1e12)).rounded())
        try post(WorkerMessage(kind: .subtitleDraw, numbers: [Int64(id), ms, Int64(width), Int64(height),
                                                               Int64(bitPattern: fontScale.bitPattern)]))
        asked = MonotonicClock.seconds()
    }

    /// Takes the answer to the frame asked for, if it comes within `seconds`, into `images`.
    private func collect(within seconds: Double) throws(AVError) {
        guard let since = asked else { return }
        guard let outcome = worker.message(within: seconds) else {
            guard MonotonicClock.seconds() - since > Self.drawTime else { return }
            worker.stop()
            _ = try pool.answer(.stopped("took too long"), worker: worker, name: "subtitles")
            return
        }
        asked = nil
        let m = try pool.answer(outcome, worker: worker, name: "subtitles")
        defer { if m.fd >= 0 { close(m.fd) } }
        guard m.kind == .subtitleImages, m.numbers.count >= 3 else { throw stop(m.text.isEmpty ? "the subtitle renderer failed" : m.text) }
        if m.fd >= 0 {
            guard let fresh = SubtitleImages.Mapping(fd: m.fd) else { throw stop("the subtitle renderer's answer was malformed") }
            mapping = fresh
        }
        if m.numbers[0] != 0 || m.fd >= 0 {
            guard let mapping, let parsed = SubtitleImages.parse(m, map: mapping.base, size: mapping.size) else {
                throw stop("the subtitle renderer's answer was malformed")
            }
            images = parsed
        }
    }

    /// Sends a message the worker answers later, or never; throws how it ended if it had.
    private func post(_ message: WorkerMessage) throws(AVError) {
        if let ended = worker.post(message) {
            _ = try pool.answer(ended, worker: worker, name: "subtitles")
        }
    }

    /// Sends a never-answered message for track `id` with `bytes` in a sealed memfd.
    private func post(_ kind: WorkerMessage.Kind, track id: Int, _ bytes: [UInt8]) throws(AVError) {
        var fd: Int32 = -1
        if !bytes.isEmpty {
            guard let sealed = bytes.withUnsafeBytes({ SealedBytes.make([$0], name: "mediaview-subtitles") }) else { return }
            fd = sealed
        }
        defer { if fd >= 0 { close(fd) } }
        try post(WorkerMessage(kind: kind, numbers: [Int64(id), Int64(bytes.count)], fd: fd))
    }

    /// Stops the worker after an answer it should not have given; the line to say.
    private func stop(_ why: String) -> AVError {
        worker.stop()
        return AVError(message: "subtitles: \(why)")
    }
}
