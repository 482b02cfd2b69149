import Dispatch
import MediaCore
import Viewer

/// Hands a long list of items to the queue in batches from the main loop, so the first
/// picture of a 100,000-file folder shows at once while the rest become views behind it.
@MainActor
final class QueueFeeder {
    /// Items made into views before the loop starts, and the step a later batch grows by.
    static let batch = 512
    /// How long one loop turn may spend making views: keys and the control socket are
    /// answered between turns, so a million files are queued in a few seconds while a
    /// key press waits no more than this.
    static let turnBudget = 0.008

    private let items: [String]
    private let startIndex: Int
    private let log: EventLog?
    private let makeView: (Int, String) -> MediaView
    /// The first item not yet given to the queue.
    private var next = 0

    init(items: [String], startIndex: Int, log: EventLog?, makeView: @escaping (Int, String) -> MediaView) {
        self.items = items
        self.startIndex = min(max(0, startIndex), max(0, items.count - 1))
        self.log = log
        self.makeView = makeView
    }

    /// Queues the opening item with what comes before it and a first batch after it, then
    /// feeds the rest from the main loop.
    func start(on queue: MediaQueue) {
        let end = min(items.count, startIndex + Self.batch)
        queue.queue(mediaViews: views(0..<end), startIndex: startIndex)
        next = end
        feedLater(queue)
    }

    private func feedLater(_ queue: MediaQueue) {
        guard next < items.count else {
            log?.log("queued", [("items", .int(items.count))])
            return
        }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated {
                let started = MonotonicClock.seconds()
                var made: [MediaView] = []
                while next < items.count && MonotonicClock.seconds() - started < Self.turnBudget {
                    let end = min(items.count, next + Self.batch)
                    made += views(next..<end)
                    next = end
                }
                queue.queue(mediaViews: made)
                feedLater(queue)
            }
        }
    }

    private func views(_ range: Range<Int>) -> [MediaView] {
        range.map { makeView($0, items[$0]) }
    }
}
