import CASS

/// Owns an `ASS_Track`: one subtitle track's styles and events, as libass holds them.
package final class ASSTrack {
    let raw: UnsafeMutablePointer<ASS_Track>
    /// Keeps the library alive as long as the track that uses it.
    private let library: ASSLibrary
    /// Whether the script header was given.
    private(set) var hasHeader = false
    /// Events given so far; each is numbered with its place, which libass keys them on.
    private(set) var count = 0

    /// Nil when libass cannot make a track.
    package init?(library: ASSLibrary) {
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
    package func setHeader(_ header: String) {
        hasHeader = true
        var bytes = Array((header.isEmpty ? ASSTrack.plainHeader : ASSTrack.boundingDialogues(header)).utf8)
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
        // Every style's sizes bounded as an event's override tags are.
        let limits = SubtitleBounds.tagLimits
        for i in 0..<Int(max(0, raw.pointee.n_styles)) {
            let s = raw.pointee.styles + i
            s.pointee.FontSize = min(s.pointee.FontSize, limits["fs"]!)
            s.pointee.ScaleX = min(s.pointee.ScaleX, limits["fscx"]! / 100)
            s.pointee.ScaleY = min(s.pointee.ScaleY, limits["fscy"]! / 100)
            s.pointee.Spacing = max(-limits["fsp"]!, min(s.pointee.Spacing, limits["fsp"]!))
            s.pointee.Outline = min(s.pointee.Outline, limits["bord"]!)
            s.pointee.Shadow = max(-limits["shad"]!, min(s.pointee.Shadow, limits["shad"]!))
            s.pointee.Blur = min(s.pointee.Blur, limits["blur"]!)
        }
        for i in 0..<Int(max(0, raw.pointee.n_events)) { hideIfTooLarge(raw.pointee.events + i) }
    }

    /// The header with the override tags of its `Dialogue:` lines bounded. A line FFmpeg's
    /// demuxer cannot time (a damaged start) stays in the header it hands over, and libass
    /// reads it there as an event: a 828-byte script with `\bord10000` on such a line made
    /// libass take 5.7 GB.
    static func boundingDialogues(_ header: String) -> String {
        guard header.contains("Dialogue:") else { return header }
        return header.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line in
            line.drop { $0 == " " || $0 == "\t" }.hasPrefix("Dialogue:") ? SubtitleBounds.bounded(String(line)) : String(line)
        }.joined(separator: "\n")
    }

    /// Events that would cover more than this many times the play resolution's area are not
    /// drawn: within every per-tag bound, 200 letters at the largest size and scale still
    /// make libass rasterise gigabytes. A whole screen of ordinary text is well under it.
    static let mostScreens = 16.0

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

    /// Adds one event, numbered with its place; one over the drawing budget is kept but
    /// never shown.
    package func add(_ cue: SubtitleCue) {
        var bytes = Array("\(count),\(cue.fields)".utf8)
        count += 1
        let start = Int64((cue.start * 1000).rounded()), duration = Int64((cue.duration * 1000).rounded())
        let before = raw.pointee.n_events
        bytes.withUnsafeMutableBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) {
                ass_process_chunk(raw, $0, Int32(b.count), start, duration)
            }
        }
        guard raw.pointee.n_events > before else { return }
        hideIfTooLarge(raw.pointee.events + Int(raw.pointee.n_events - 1))
    }

    /// Keeps `event` but never shows it when it is over the drawing budget.
    private func hideIfTooLarge(_ event: UnsafeMutablePointer<ASS_Event>) {
        if area(of: event.pointee) > Self.mostScreens * Double(raw.pointee.PlayResX) * Double(raw.pointee.PlayResY) {
            event.pointee.Duration = 0
        }
    }

    /// About how many script pixels an event's glyphs cover with their borders and shadows,
    /// at the largest size, scale and border its style and tags give any of them.
    private func area(of e: ASS_Event) -> Double {
        var size = 18.0, scaleX = 1.0, scaleY = 1.0, pad = 0.0
        if e.Style >= 0, e.Style < raw.pointee.n_styles {
            let s = raw.pointee.styles[Int(e.Style)]
            (size, scaleX, scaleY) = (s.FontSize, s.ScaleX, s.ScaleY)
            pad = abs(s.Outline) + abs(s.Shadow) + s.Blur
        }
        guard let text = e.Text.map({ String(cString: $0) }) else { return 0 }
        let tags = SubtitleBounds.largestTags(text)
        size = max(size, tags["fs"] ?? 0)
        scaleX = max(scaleX, (tags["fscx"] ?? 0) / 100)
        scaleY = max(scaleY, (tags["fscy"] ?? 0) / 100)
        pad = max(pad, (tags["bord"] ?? 0) + (tags["xbord"] ?? 0) + (tags["ybord"] ?? 0)
                  + (tags["shad"] ?? 0) + (tags["xshad"] ?? 0) + (tags["yshad"] ?? 0) + (tags["blur"] ?? 0) + (tags["be"] ?? 0))
        let glyph = (size * scaleX + 2 * pad) * (size * scaleY + 2 * pad)
        return Double(SubtitleBounds.glyphCount(text)) * glyph
    }

    /// Hides, for one frame, the events due at `milliseconds` beyond the first `most`;
    /// returns what `restore` needs to show them again.
    func hide(beyond most: Int, at milliseconds: Int64) -> [(Int, Int64)] {
        var due = 0
        var hidden: [(Int, Int64)] = []
        for i in 0..<Int(max(0, raw.pointee.n_events)) {
            let e = raw.pointee.events + i
            // In doubles: a damaged file's times must not overflow into a trap.
            guard e.pointee.Start <= milliseconds,
                  Double(milliseconds) < Double(e.pointee.Start) + Double(e.pointee.Duration) else { continue }
            due += 1
            if due > most {
                hidden.append((i, e.pointee.Duration))
                e.pointee.Duration = 0
            }
        }
        return hidden
    }

    /// Shows again the events `hide` hid.
    func restore(_ hidden: [(Int, Int64)]) {
        for (i, duration) in hidden where i < Int(raw.pointee.n_events) { raw.pointee.events[i].Duration = duration }
    }
}
