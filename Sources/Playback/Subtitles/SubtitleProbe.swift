import MediaCore
import Subtitles

/// Subtitle bytes through everything a subtitle file goes through in the player: FFmpeg's
/// demuxer and decoder, the bounds, and libass drawing a few of its moments. For the
/// fuzzer, which must see it return and refuse in one line.
public enum SubtitleProbe {
    /// What reading the bytes gave.
    public struct Outcome {
        /// Events kept (never more than the player keeps).
        public var events = 0
        /// Images libass drew at the first events' times.
        public var images = 0
        /// Why the bytes were refused, in one line.
        public var failure: AVError?
    }

    /// The extensions tried, one per input, chosen by its length.
    static let names = ["input.srt", "input.ass", "input.ssa", "input.vtt"]

    /// Reads `bytes` as a subtitle file and draws its first events in a 640x360 frame.
    public static func run(_ bytes: [UInt8]) -> Outcome {
        FFmpegLog.quiet
        var outcome = Outcome()
        let script: SubtitleFile.Script
        do throws(AVError) {
            script = try SubtitleFile.decode(bytes, name: names[bytes.count % names.count])
        } catch {
            outcome.failure = error
            return outcome
        }
        outcome.events = script.cues.count
        guard let library = ASSLibrary(), let renderer = ASSRenderer(library: library),
              let track = ASSTrack(library: library) else { return outcome }
        track.setHeader(script.header)
        for c in script.cues { track.add(c) }
        renderer.setSize(width: 640, height: 360)
        for c in script.cues.prefix(3) {
            var image = renderer.render(track, at: Int64((c.start * 1000).rounded()))
            while let i = image { outcome.images += 1; image = i.pointee.next }
        }
        return outcome
    }

    /// An ASS event's fields with its font sizes bounded, as the player keeps them.
    public static func boundedEvent(_ fields: String) -> String { SubtitleBounds.bounded(fields) }

    /// The largest font size or scale an event keeps.
    public static var maxFontSize: Int { SubtitleBounds.maxFontSize }

    /// The largest value each bounded override tag keeps, by tag name.
    public static var tagLimits: [String: Double] { SubtitleBounds.tagLimits }

    /// The largest step a relative font size (`\fs+N`) keeps.
    public static var relativeFontStep: Double { SubtitleBounds.relativeFontStep }
}
