/// When a JPEG still that is downloading is decoded again to show what has arrived: after
/// each further ~12 % of its length, and no sooner than half a second after the last such
/// picture, whichever comes later. The first comes at 12 %, or as soon as a progressive
/// file's first scan is in if that is sooner, once a quarter of a second has passed: no
/// picture came before it to pace it against. A slow download sharpens in
/// about eight steps; a fast one shows none (its whole picture comes first), so a photo on
/// a quick server costs no more than before.
struct PartialPictureSchedule {
    /// The share of the length that must have come since the last picture.
    static let share = 0.12
    /// The least time in seconds between the end of one picture's decode and the next.
    static let interval = 0.5
    /// The least time in seconds from the start of the download to the first picture.
    static let firstWait = 0.25
    /// Without a length announced: the bytes that must have come since the last picture.
    static let stepWithoutLength = 512 * 1024

    private var lastBytes = 0
    private var lastAt: Double
    private var pictures = 0

    /// A schedule for a download that started at `start` (monotonic seconds).
    init(start: Double) { lastAt = start - Self.interval + Self.firstWait }

    /// Whether `bytes` of `total` (0: not announced), arrived by `now`, call for a picture;
    /// `firstScanIn` when a progressive file's first scan is among them. Never for the whole
    /// file: the full decode follows at once.
    func isDue(bytes: Int, total: Int, now: Double, firstScanIn: Bool) -> Bool {
        if total > 0 && bytes >= total { return false }
        let step = total > 0 ? Int(Double(total) * Self.share) : Self.stepWithoutLength
        let enough = bytes - lastBytes >= step || (pictures == 0 && firstScanIn)
        return enough && now - lastAt >= Self.interval
    }

    /// A picture of `bytes` was decoded, done at `now`.
    mutating func decoded(bytes: Int, at now: Double) {
        lastBytes = bytes
        lastAt = now
        pictures += 1
    }
}
