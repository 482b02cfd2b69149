import CASS

/// Owns an `ASS_Track`: one subtitle track's styles and events, as libass holds them.
final class ASSTrack {
    let raw: UnsafeMutablePointer<ASS_Track>
    /// Keeps the library alive as long as the track that uses it.
    private let library: ASSLibrary
    /// Whether the script header was given.
    private(set) var hasHeader = false
    /// Events given so far; each is numbered with its place, which libass keys them on.
    private(set) var count = 0

    /// Nil when libass cannot make a track.
    init?(library: ASSLibrary) {
        guard let t = ass_new_track(library.raw) else { return nil }
        raw = t
        self.library = library
        // Events come numbered and free of repeats (`SubtitleCues`); libass's own check
        // looks through every event for each new one, which for a long script is quadratic.
        ass_set_check_readorder(t, 0)
    }

    deinit { ass_free_track(raw) }

    /// Reads the script header (styles, play resolution), then bounds every style's font
    /// size, so a hostile script's 100000-pixel font draws at a size a screen can hold.
    func setHeader(_ header: String) {
        hasHeader = true
        var bytes = Array((header.isEmpty ? ASSTrack.plainHeader : header).utf8)
        bytes.withUnsafeMutableBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) {
                ass_process_codec_private(raw, $0, Int32(b.count))
            }
        }
        // A play resolution of a few pixels scales every line up a hundredfold: a 444-byte
        // script with PlayResX 3 and one drawing made libass take 7.6 GB. Below 100 pixels
        // the usual 384x288 is used.
        if raw.pointee.PlayResX < 100 || raw.pointee.PlayResY < 100 {
            raw.pointee.PlayResX = 384
            raw.pointee.PlayResY = 288
        }
        let limit = Double(SubtitleDecoder.maxFontSize)
        for i in 0..<Int(max(0, raw.pointee.n_styles)) where raw.pointee.styles[i].FontSize > limit {
            raw.pointee.styles[i].FontSize = limit
        }
    }

    /// White sans-serif text with a black outline at the bottom centre, for a track whose
    /// decoder gave no header of its own (FFmpeg's text decoders all give one today).
    static let plainHeader = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 384
        PlayResY: 288
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
        Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, \
        MarginV, Encoding
        Style: Default,sans-serif,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """

    /// Adds one event, numbered with its place.
    func add(_ cue: SubtitleCue) {
        var bytes = Array("\(count),\(cue.fields)".utf8)
        count += 1
        let start = Int64((cue.start * 1000).rounded()), duration = Int64((cue.duration * 1000).rounded())
        bytes.withUnsafeMutableBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) {
                ass_process_chunk(raw, $0, Int32(b.count), start, duration)
            }
        }
    }
}
