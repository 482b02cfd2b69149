/// When a JPEG still that is downloading is decoded again to show what has arrived: after
/// each further ~12 % of its length, and no sooner than half a second after the last such
/// picture, whichever comes later. A slow download sharpens in about eight steps; a fast
/// one shows none (its whole picture comes first), so a photo on a quick server costs no
/// more than before.
struct PartialPictureSchedule {
    /// The share of the length that must have come since the last picture.
    static let share = 0.12
    /// The least time in seconds between the end of one picture's decode and the next.
    static let interval = 0.5
    /// Without a length announced: the bytes that must have come since the last picture.
    static let stepWithoutLength = 512 * 1024

    private var lastBytes = 0
    private var lastAt: Double

    /// A schedule for a download that started at `start` (monotonic seconds).
    init(start: Double) { lastAt = start }

    /// Whether `bytes` of `total` (0: not announced), arrived by `now`, call for a picture.
    /// Never for the whole file: the full decode follows at once.
    func isDue(bytes: Int, total: Int, now: Double) -> Bool {
        if total > 0 && bytes >= total { return false }
        let step = total > 0 ? Int(Double(total) * Self.share) : Self.stepWithoutLength
        return bytes - lastBytes >= step && now - lastAt >= Self.interval
    }

    /// A picture of `bytes` was decoded, done at `now`.
    mutating func decoded(bytes: Int, at now: Double) {
        lastBytes = bytes
        lastAt = now
    }
}
