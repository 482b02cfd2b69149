import Foundation

/// Subtitle files and videos with subtitle or several sound tracks, made at test time.
extension Fixtures {
    /// One subtitle line: from `start` to `end` seconds.
    public struct Cue {
        public var start: Double
        public var end: Double
        public var text: String
        public init(_ start: Double, _ end: Double, _ text: String) {
            self.start = start
            self.end = end
            self.text = text
        }
    }

    /// A line of full blocks (U+2588) in `color`, large: a subtitle whose pixels a test finds.
    public static func blocks(_ color: String = "#ffffff") -> String {
        "<font size=\"40\" color=\"\(color)\">\u{2588}\u{2588}\u{2588}\u{2588}\u{2588}\u{2588}</font>"
    }

    /// SubRip text for `cues`.
    public static func srtText(_ cues: [Cue]) -> String {
        func stamp(_ t: Double) -> String {
            let ms = Int((t * 1000).rounded())
            return String(format: "%02d:%02d:%02d,%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
        }
        return cues.enumerated().map { i, c in "\(i + 1)\n\(stamp(c.start)) --> \(stamp(c.end))\n\(c.text)\n" }
            .joined(separator: "\n")
    }

    /// A SubRip file named `name` holding `cues`, in a folder of its own when `beside` names
    /// a media file to copy next to it.
    public static func srt(_ name: String, _ cues: [Cue]) throws -> String {
        try bytes(name, Data(srtText(cues).utf8))
    }

    /// `video` with `subtitles` muxed in as a subtitle stream of `codec` (`srt` in
    /// Matroska, `mov_text` in MP4).
    public static func withSubtitles(_ video: String, _ subtitles: String, codec: String, ext: String, name: String) throws -> String {
        try make("\(name).\(ext)", ["-i", video, "-i", subtitles, "-map", "0:v", "-map", "1:s", "-c:v", "copy", "-c:s", codec])
    }

    /// `seconds` of a solid video with two sound tracks: a tone of `first` Hz (English)
    /// and one of `second` Hz (German).
    public static func twoToneVideo(_ first: Int, _ second: Int, seconds: Double) throws -> String {
        try make("two-tones-\(first)-\(second)-\(seconds).mkv", [
            "-f", "lavfi", "-i", "color=c=gray:s=320x240:r=25:d=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=\(first):sample_rate=48000:duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=\(second):sample_rate=48000:duration=\(seconds)",
            "-map", "0:v", "-map", "1:a", "-map", "2:a", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-c:a", "libopus", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=deu", "-shortest"])
    }
}
