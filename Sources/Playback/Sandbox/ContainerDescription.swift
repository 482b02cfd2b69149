import CFFmpeg
import FoundationEssentials

/// What a worker's demuxer found in a container, as it crosses to the viewer: the facts the
/// player reads from a format context (streams with their codec parameters, tags, chapters,
/// the duration), and nothing that could point into the worker.
///
/// The viewer rebuilds a format context from it (`StandInContext`) that holds only these
/// facts, so the code that chooses streams, describes the media and opens decoders works
/// unchanged while no container parser runs in the viewer. Encoded as JSON: a subverted
/// worker's answer is refused by the decoder or by `isSound`, never trusted into C.
struct ContainerDescription: Codable {
    struct Stream: Codable {
        var codec: CodecFacts
        var timeBase: [Int32]
        var disposition: Int32
        var tags: [[String]]
        var averageRate: [Int32]
        var realRate: [Int32]
        var aspect: [Int32]
        var frames: Int64
        var duration: Int64
        var start: Int64
        /// The display matrix (nine numbers) of a turned video; nil when it has none.
        var matrix: [Int32]?
        /// A text subtitle stream's ASS script header (styles, play resolution), made by its
        /// decoder in the worker; nil for every other stream.
        var subtitleHeader: String?
    }

    /// A chapter: where it starts and ends in its time base, and its title.
    struct Chapter: Codable {
        var start: Int64
        var end: Int64
        var timeBase: [Int32]
        var title: String?
    }

    var format: String
    var longName: String?
    var duration: Int64
    var start: Int64
    var bitRate: Int64
    var tags: [[String]]
    var chapters: [Chapter]
    var streams: [Stream]
    /// `av_find_best_stream`'s answers in the worker, which knows how many frames each
    /// stream showed while probed (-1: none).
    var bestVideo: Int
    var bestAudio: Int

    /// The most streams and chapters a description may hold (FFmpeg's own stream limit is
    /// 1,000; a file with more is not one a person plays).
    static let mostStreams = 256
    static let mostChapters = 10_000
    /// The largest description, in bytes: a chapter list and cover tags fit many times over.
    static let largest = 8 << 20

    /// The description of the opened `ctx` (in the worker).
    init(_ ctx: UnsafeMutablePointer<AVFormatContext>) {
        let c = ctx.pointee
        format = c.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        longName = c.iformat?.pointee.long_name.map { String(cString: $0) }
        duration = c.duration
        start = c.start_time
        bitRate = c.bit_rate
        tags = ContainerDescription.tags(c.metadata)
        chapters = (0..<min(Int(c.nb_chapters), ContainerDescription.mostChapters)).compactMap { i in
            guard let ch = c.chapters[i] else { return nil }
            return Chapter(start: ch.pointee.start, end: ch.pointee.end, timeBase: ContainerDescription.pair(ch.pointee.time_base),
                           title: StreamFacts.tag(ch.pointee.metadata, "title"))
        }
        streams = (0..<min(Int(c.nb_streams), ContainerDescription.mostStreams)).map { i in
            let st = c.streams[i]!.pointee
            var matrix: [Int32]?
            if let sd = cff_stream_side_data(c.streams[i], AV_PKT_DATA_DISPLAYMATRIX) {
                matrix = Array(UnsafeBufferPointer(start: UnsafeRawPointer(sd).assumingMemoryBound(to: Int32.self), count: 9))
            }
            return Stream(codec: CodecFacts(st.codecpar), timeBase: ContainerDescription.pair(st.time_base), disposition: st.disposition,
                          tags: ContainerDescription.tags(st.metadata), averageRate: ContainerDescription.pair(st.avg_frame_rate),
                          realRate: ContainerDescription.pair(st.r_frame_rate), aspect: ContainerDescription.pair(st.sample_aspect_ratio), frames: st.nb_frames,
                          duration: st.duration, start: st.start_time, matrix: matrix)
        }
        let v = av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        let a = av_find_best_stream(ctx, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        bestVideo = v >= 0 && Int(v) < streams.count ? Int(v) : -1
        bestAudio = a >= 0 && Int(a) < streams.count ? Int(a) : -1
    }

    /// Whether every number is one the viewer can take: counts within bounds, time bases
    /// with positive denominators, the best streams of the right kind.
    var isSound: Bool {
        guard streams.count <= ContainerDescription.mostStreams, chapters.count <= ContainerDescription.mostChapters,
              bestVideo < streams.count, bestAudio < streams.count, format.utf8.count < 256 else { return false }
        if bestVideo >= 0 && streams[bestVideo].codec.type != AVMEDIA_TYPE_VIDEO.rawValue { return false }
        if bestAudio >= 0 && streams[bestAudio].codec.type != AVMEDIA_TYPE_AUDIO.rawValue { return false }
        let rationals = streams.flatMap { [$0.timeBase, $0.averageRate, $0.realRate, $0.aspect] } + chapters.map(\.timeBase)
        guard rationals.allSatisfy({ $0.count == 2 }), streams.allSatisfy({ $0.timeBase[1] > 0 && $0.timeBase[0] > 0 }),
              chapters.allSatisfy({ $0.timeBase[1] > 0 }) else { return false }
        return streams.allSatisfy {
            ($0.matrix?.count ?? 9) == 9 && $0.codec.isSound && ($0.subtitleHeader?.utf8.count ?? 0) <= SubtitleWork.largestHeader
        }
    }

    private static func tags(_ dict: OpaquePointer?) -> [[String]] {
        var out: [[String]] = []
        var e: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(dict, "", e, AV_DICT_IGNORE_SUFFIX), out.count < 1000 {
            out.append([String(cString: next.pointee.key), String(cString: next.pointee.value)])
            e = next
        }
        return out
    }
}

extension ContainerDescription {
    /// Two numbers of a rational, as a description carries them.
    static func pair(_ r: AVRational) -> [Int32] { [r.num, r.den] }

    /// A rational from a description's two numbers (checked by `isSound`).
    static func rational(_ p: [Int32]) -> AVRational { AVRational(num: p.count == 2 ? p[0] : 0, den: p.count == 2 ? p[1] : 1) }
}
