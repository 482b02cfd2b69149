import FoundationEssentials
import Glibc
import MediaCore
import Subtitles

/// Subtitle text read in a worker: the files beside a film or named by the user, and the
/// text subtitle packets of a container a worker reads.
///
/// FFmpeg's subtitle demuxers and decoders parse whatever a downloaded `.srt` or `.ass`
/// holds, and a crafted one reaches the same memory bugs a video can. In a worker they touch
/// no file but the one handed over. What comes back is JSON of plain events, checked here
/// and bounded again before libass sees it, since a subverted worker may send anything.
package enum SubtitleWork {
    /// The longest script header (styles, play resolution) taken from a worker: a film's is a
    /// few KiB.
    static let largestHeader = 1 << 20
    /// The longest event taken: a line of text with its override tags.
    static let largestEvent = 64 << 10
    /// The largest JSON a worker may send for one packet's events, or a whole file's.
    package static let largestAnswer = 64 << 20

    // MARK: The worker's side

    /// Reads the subtitle file in `m`'s fd (the viewer opened it and checked its size) and
    /// answers its script, or the one line why not.
    package static func load(_ m: WorkerMessage) -> WorkerMessage {
        let name = m.text.isEmpty ? "the subtitle file" : m.text
        guard m.fd >= 0 else { return WorkerMessage(kind: .failure, text: "\(name): the request was malformed") }
        var bytes = [UInt8](repeating: 0, count: SubtitleFile.maxBytes)
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(m.fd, $0.baseAddress! + got, $0.count - got, off_t(got)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        let script: SubtitleFile.Script
        do { script = try SubtitleFile.decode(Array(bytes[..<got]), name: name) } catch {
            return WorkerMessage(kind: .failure, text: error.message)
        }
        return sealed(script, kind: .subtitleScript, numbers: []) ?? outOfMemory(name)
    }

    /// The answer to a read that met a text subtitle packet of `stream`: its events.
    static func cuesMessage(stream: Int, _ cues: [SubtitleCue]) -> WorkerMessage? {
        sealed(cues, kind: .containerCues, numbers: [Int64(stream)])
    }

    /// `value`'s JSON in a sealed memfd, its length the last number of a `kind` message.
    private static func sealed(_ value: some Encodable, kind: WorkerMessage.Kind, numbers: [Int64]) -> WorkerMessage? {
        guard let json = try? JSONEncoder().encode(value), json.count <= largestAnswer,
              let fd = json.withUnsafeBytes({ SealedBytes.make([$0], name: "mediaview-subtitles") }) else { return nil }
        return WorkerMessage(kind: kind, numbers: numbers + [Int64(json.count)], fd: fd)
    }

    private static func outOfMemory(_ name: String) -> WorkerMessage {
        WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)], text: "\(name): out of memory")
    }

    // MARK: The viewer's side

    /// The script in a `subtitleScript` answer; nil when it is malformed or out of bounds.
    static func script(in m: WorkerMessage) -> SubtitleFile.Script? {
        guard m.kind == .subtitleScript, let count = m.numbers.first,
              var s: SubtitleFile.Script = decoded(m.fd, count: count) else { return nil }
        guard s.header.utf8.count <= largestHeader, s.codec.utf8.count <= 64, !s.cues.isEmpty,
              let cues = bounded(s.cues) else { return nil }
        s.cues = cues
        return s
    }

    /// The stream and events in a `containerCues` answer; nil when it is malformed, out of
    /// bounds, or names a stream that is not one of `subtitleStreams`.
    static func cues(in m: WorkerMessage, subtitleStreams: Set<Int>) -> (stream: Int, cues: [SubtitleCue])? {
        guard m.kind == .containerCues, m.numbers.count >= 2, let stream = Int(exactly: m.numbers[0]),
              subtitleStreams.contains(stream), let list: [SubtitleCue] = decoded(m.fd, count: m.numbers[1]),
              let cues = bounded(list) else { return nil }
        return (stream, cues)
    }

    /// The events, when each has a finite time and a length a line can have, with their
    /// override tags bounded for libass, as events decoded here are.
    static func bounded(_ cues: [SubtitleCue]) -> [SubtitleCue]? {
        guard cues.count <= SubtitleCues.maxCues else { return nil }
        var out: [SubtitleCue] = []
        out.reserveCapacity(cues.count)
        for c in cues {
            guard c.start.isFinite, c.duration.isFinite, c.duration > 0, c.fields.utf8.count <= largestEvent else { return nil }
            out.append(SubtitleCue(start: c.start, duration: c.duration, fields: SubtitleBounds.bounded(c.fields)))
        }
        return out
    }

    /// The JSON value of `count` bytes in the sealed memfd `fd`.
    private static func decoded<T: Decodable>(_ fd: Int32, count: Int64) -> T? {
        guard fd >= 0, (1...Int64(largestAnswer)).contains(count), let p = SealedBytes.map(fd, count: Int(count)) else { return nil }
        defer { munmap(p, Int(count)) }
        return try? JSONDecoder().decode(T.self, from: Data(bytes: p, count: Int(count)))
    }
}
