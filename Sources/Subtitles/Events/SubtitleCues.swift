/// One subtitle event: when it shows and the ASS dialogue fields that say what it shows.
package struct SubtitleCue: Sendable, Hashable, Codable {
    /// Seconds from the start of the media.
    package var start: Double
    /// Seconds it stays.
    package var duration: Double
    /// `Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`: an ASS event without its
    /// ReadOrder, which the renderer numbers itself.
    package var fields: String

    /// An event shown from `start` for `duration` seconds.
    package init(start: Double, duration: Double, fields: String) {
        self.start = start
        self.duration = duration
        self.fields = fields
    }
}

/// The subtitle events of every track, as the demux thread decoded them.
///
/// Embedded tracks grow while the file is read, and a seek reads some packets twice: an
/// event already here is not added again, so it never shows doubled. Each track keeps at
/// most `maxCues` events, so a script of millions of lines costs a bounded amount of memory.
package struct SubtitleCues {
    /// At most this many events a track; the rest of a bigger script is dropped.
    package static let maxCues = 20_000

    /// One track's header and events.
    struct Script {
        /// The ASS script header (`[Script Info]`, styles) the decoder or file gave.
        var header = ""
        var cues: [SubtitleCue] = []
        var seen: Set<SubtitleCue> = []
        /// Events over the bound, not kept.
        var dropped = 0

        mutating func add(_ cue: SubtitleCue) {
            guard !seen.contains(cue) else { return }
            guard cues.count < SubtitleCues.maxCues else { dropped += 1; return }
            seen.insert(cue)
            cues.append(cue)
        }
    }

    /// No tracks yet.
    package init() {}

    /// By subtitle track id.
    private(set) var scripts: [Int: Script] = [:]

    /// Sets the header of track `id` (its styles and play resolution).
    package mutating func setHeader(_ header: String, for id: Int) {
        scripts[id, default: Script()].header = header
    }

    /// Adds an event to track `id` unless it is there already or the track is full.
    package mutating func add(_ cue: SubtitleCue, to id: Int) {
        // Changed in place: a copy taken out and put back would copy every event each time.
        scripts[id, default: Script()].add(cue)
    }

    /// Track `id`'s header and its events from `index` on.
    package func read(_ id: Int, from index: Int) -> (header: String, cues: ArraySlice<SubtitleCue>) {
        guard let s = scripts[id] else { return ("", []) }
        return (s.header, s.cues[min(index, s.cues.count)...])
    }
}
