import Foundation
import MediaCore
@testable import Playback

/// Waiting for a thumbnail worker's results as the gallery does: woken by its callback,
/// never by a fixed sleep.
final class ThumbnailNews: Sendable {
    private let condition = Condition()

    /// What a worker calls when it has events.
    var wake: @Sendable () -> Void { { [condition] in condition.withLock { condition.broadcast() } } }

    /// The events of `worker` until there are `count` of them or `seconds` have passed.
    func events(of worker: ThumbnailWorker, count: Int, within seconds: Double = 30) -> [ThumbnailWorker.Event] {
        var done: [ThumbnailWorker.Event] = []
        let deadline = Date().addingTimeInterval(seconds)
        while done.count < count && Date() < deadline {
            condition.withLock { _ = condition.wait(seconds: 0.2) }
            done += worker.takeEvents()
        }
        return done
    }
}
