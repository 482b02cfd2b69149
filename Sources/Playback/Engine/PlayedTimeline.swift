/// Which media time each stretch of sound sent to the server holds, so the time being
/// heard can be told from how far into the sent sound the speaker is.
///
/// At the media's own pace one second of sound is one second of media; through the tempo
/// filter it is `speed` seconds. After a speed change the server still holds sound made at
/// the old speed, so each write keeps its own start and speed here.
struct PlayedTimeline {
    private struct Stretch { var outputStart: Double; var media: Double; var speed: Double }
    /// The newest stretches in a ring: enough for several seconds of server buffer.
    private var ring = [Stretch](repeating: Stretch(outputStart: 0, media: 0, speed: 1), count: 512)
    private var count = 0
    private var next = 0
    /// Seconds of sound sent since the last flush.
    private(set) var sentSeconds = 0.0

    /// Nothing sent yet (after a flush).
    var isEmpty: Bool { count == 0 }

    /// Records `seconds` of sound that holds media from `media` on, at `speed`.
    mutating func append(seconds: Double, media: Double, speed: Double) {
        ring[next] = Stretch(outputStart: sentSeconds, media: media, speed: speed)
        next = (next + 1) % ring.count
        count = min(count + 1, ring.count)
        sentSeconds += seconds
    }

    /// The media time at `output` seconds into the sent sound; nil before anything was sent.
    func media(atOutput output: Double) -> Double? {
        guard count > 0 else { return nil }
        // Newest first: the speaker is nearly always in one of the last few stretches.
        for k in 1...count {
            let s = ring[(next - k + ring.count) % ring.count]
            if s.outputStart <= output || k == count {
                return s.media + (output - s.outputStart) * s.speed
            }
        }
        return nil
    }

    mutating func reset() {
        count = 0
        next = 0
        sentSeconds = 0
    }
}
