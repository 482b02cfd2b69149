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
    }

    deinit { ass_free_track(raw) }

    /// Reads the script header (styles, play resolution), then bounds every style's font
    /// size, so a hostile script's 100000-pixel font draws at a size a screen can hold.
    func setHeader(_ header: String) {
        hasHeader = true
        var bytes = Array(header.utf8)
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeMutableBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) {
                ass_process_codec_private(raw, $0, Int32(b.count))
            }
        }
        let limit = Double(SubtitleDecoder.maxFontSize)
        for i in 0..<Int(max(0, raw.pointee.n_styles)) where raw.pointee.styles[i].FontSize > limit {
            raw.pointee.styles[i].FontSize = limit
        }
    }

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
