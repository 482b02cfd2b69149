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
    /// The last frame's images, drawn again while the worker says nothing changed.
    private var images: [SubtitleImages.Placed] = []
    /// Seconds a frame may take: the first line in a new font opens it.
    static let drawTime = 2.0

    init(worker: DecodeWorker, pool: DecodeWorkers) {
        self.worker = worker
        self.pool = pool
    }

    deinit { pool.retire(worker) }

    /// Hands `draw` the images of track `id` due at `seconds` for a video `width` x `height`
    /// pixels large, text `fontScale` times the script's size; `news` gives the track's
    /// header and its events from an index on. Throws the one line when the worker stopped
    /// or answered nonsense; it is then gone.
    func render(track id: Int, at seconds: Double, width: Int, height: Int, fontScale: Double,
                news: (Int) -> (header: String, cues: [SubtitleCue]), _ draw: (SubtitleBitmap) -> Void) throws(AVError) {
        guard width > 0, height > 0, seconds.isFinite, id > 0 else { return }
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
        let request = WorkerMessage(kind: .subtitleDraw, numbers: [Int64(id), ms, Int64(width), Int64(height),
                                                                   Int64(bitPattern: fontScale.bitPattern)])
        let m = try pool.answer(worker.exchange(request, timeout: Self.drawTime), worker: worker, name: "subtitles")
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
        guard let mapping else { return }
        for p in images {
            draw(SubtitleBitmap(mask: mapping.base + p.offset, width: p.width, height: p.height, stride: p.width, x: p.x, y: p.y,
                                red: UInt8(p.color >> 24), green: UInt8((p.color >> 16) & 0xFF),
                                blue: UInt8((p.color >> 8) & 0xFF), alpha: UInt8(p.color & 0xFF)))
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
        if let ended = worker.post(WorkerMessage(kind: kind, numbers: [Int64(id), Int64(bytes.count)], fd: fd)) {
            _ = try pool.answer(ended, worker: worker, name: "subtitles")
        }
    }

    /// Stops the worker after an answer it should not have given; the line to say.
    private func stop(_ why: String) -> AVError {
        worker.stop()
        return AVError(message: "subtitles: \(why)")
    }
}
