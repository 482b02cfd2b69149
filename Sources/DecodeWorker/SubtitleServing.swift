import FoundationEssentials
import Glibc
import Playback
import Subtitles

/// The subtitles a worker draws for one player: libass's renderer, made in the warm-up while
/// fontconfig could still read its configuration and list the fonts, and the events the
/// viewer sent, by track. Each frame's images go back in the worker's image memfd.
final class SubtitleServing {
    /// The renderer the warm-up made; nil in a worker of another kind, or when libass could
    /// not start.
    nonisolated(unsafe) private static var warmRenderer: SubtitleRenderer?
    /// Not a track the viewer numbers: the warm-up's line is never drawn again.
    private static let warmUpTrack = -1
    private var cues = SubtitleCues()
    private var area: SubtitleImages.Area?
    /// The count and bytes of the images last written to `area`, which the viewer holds.
    private var last: [Int64]?
    /// The headers sent, by track (the tests' crash trigger reads them).
    private var headers: [Int: String] = [:]
    /// The largest frame drawn for: larger than any screen.
    private static let largestSide = 16384

    /// Makes the renderer and draws one line with it: fontconfig reads its configuration
    /// and font list, and the default font is opened, while files can still be read.
    static func warm() {
        guard let renderer = SubtitleRenderer() else { return }
        let line = SubtitleCue(start: 0, duration: 1, fields: "0,Default,,0,0,0,,Ag {\\b1}Ag{\\b0} {\\i1}Ag")
        renderer.render(track: warmUpTrack, at: 0.5, width: 320, height: 240, news: { $0 == 0 ? ("", [line]) : ("", []) }) { _ in }
        warmRenderer = renderer
    }

    /// Whether track `id`'s header contains `text`.
    func header(of id: Int64, contains text: String) -> Bool { headers[Int(id)]?.contains(text) == true }

    /// A track drawn from now on: `m` numbers it and carries its header.
    func track(_ m: WorkerMessage) {
        guard m.numbers.count >= 2, let id = Int(exactly: m.numbers[0]), id > 0, let bytes = bytes(m, count: m.numbers[1]) else { return }
        let header = String(decoding: bytes, as: UTF8.self)
        headers[id] = header
        cues.setHeader(header, for: id)
    }

    /// More events of a track.
    func events(_ m: WorkerMessage) {
        guard m.numbers.count >= 2, let id = Int(exactly: m.numbers[0]), id > 0, let bytes = bytes(m, count: m.numbers[1]),
              let list = try? JSONDecoder().decode([SubtitleCue].self, from: Data(bytes)) else { return }
        for c in list { cues.add(c, to: id) }
    }

    /// The images of a track due at a time, for a video of a size.
    func draw(_ m: WorkerMessage) -> WorkerMessage {
        let n = m.numbers
        guard n.count >= 5, let id = Int(exactly: n[0]), id > 0, (1...Int64(Self.largestSide)).contains(n[2]),
              (1...Int64(Self.largestSide)).contains(n[3]) else {
            return WorkerMessage(kind: .failure, text: "the subtitle request was malformed")
        }
        guard let renderer = Self.warmRenderer else { return WorkerMessage(kind: .failure, text: "libass could not start") }
        let scale = Double(bitPattern: UInt64(bitPattern: n[4]))
        var bitmaps: [SubtitleBitmap] = []
        var changed = true
        renderer.render(track: id, at: Double(n[1]) / 1000, width: Int(n[2]), height: Int(n[3]),
                        fontScale: scale.isFinite && scale > 0 ? scale : 1,
                        news: { [cues] from in
                            let (header, list) = cues.read(id, from: from)
                            return (header, Array(list))
                        }, changed: &changed) { bitmaps.append($0) }
        // Most frames show the lines the last one did: the viewer draws its copy again. (The
        // masks stay valid until the renderer's next frame, so they are read only now.)
        if !changed, let last { return SubtitleImages.unchanged(last) }
        guard let answer = SubtitleImages.answer(bitmaps, area: &area) else {
            last = nil
            return WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)], text: "the subtitles are too large to draw")
        }
        last = Array(answer.numbers[1...])
        return answer
    }

    /// The `count` bytes of `m`'s sealed memfd.
    private func bytes(_ m: WorkerMessage, count: Int64) -> [UInt8]? {
        guard m.fd >= 0, (1...Int64(SubtitleWork.largestAnswer)).contains(count), let p = SealedBytes.map(m.fd, count: Int(count)) else {
            return count == 0 ? [] : nil
        }
        defer { munmap(p, Int(count)) }
        return Array(UnsafeRawBufferPointer(start: p, count: Int(count)))
    }
}
