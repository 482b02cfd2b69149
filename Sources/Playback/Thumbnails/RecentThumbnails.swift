/// What the worker made, at most `budget` bytes of it: the least recently shown goes first
/// when more comes in, so scrolling through 100,000 files holds a few screens' worth.
struct RecentThumbnails {
    let budget: Int
    private(set) var bytes = 0
    private var entries: [String: Entry] = [:]
    private var clock = 0

    private struct Entry {
        var outcome: ThumbnailWorker.Outcome
        var cost: Int
        var used: Int
    }

    init(budget: Int) { self.budget = budget }

    func contains(_ path: String) -> Bool { entries[path] != nil }

    /// The outcome for `path`, marked as just shown.
    mutating func use(_ path: String) -> ThumbnailWorker.Outcome? {
        guard var e = entries[path] else { return nil }
        clock += 1
        e.used = clock
        entries[path] = e
        return e.outcome
    }

    /// Keeps `outcome`, letting go of the least recently shown over the budget (the scan is
    /// over what is held, a few hundred entries, once per thumbnail made).
    mutating func insert(_ outcome: ThumbnailWorker.Outcome, for path: String) {
        var cost = 64
        if case .picture(let p, _) = outcome { cost += p.pixels.count }
        clock += 1
        if let old = entries[path] { bytes -= old.cost }
        entries[path] = Entry(outcome: outcome, cost: cost, used: clock)
        bytes += cost
        while bytes > budget || entries.count > 20_000 {
            guard let oldest = entries.min(by: { $0.value.used < $1.value.used }), oldest.key != path else { break }
            bytes -= oldest.value.cost
            entries[oldest.key] = nil
        }
    }
}
