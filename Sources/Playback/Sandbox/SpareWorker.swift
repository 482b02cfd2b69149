import MediaCore
import Synchronization

/// The worker started ahead for the next item once the one just taken is past its start.
///
/// Taking a worker used to start its successor at once. On two cores that successor, binding
/// its libraries (20-40 ms of a core), ran beside the taken worker opening its file or
/// decoder, on the way to the first picture. A person moves to the next item a second or
/// more later, so the successor starts at the first request made after `delay`.
struct SpareWorker {
    let kind: WorkerKind
    private let due: Double
    private var started = false
    /// Whether successors are wanted at all (`DecodeWorkers.startsWorkersForNextItem`).
    static let wanted = Atomic<Bool>(true)

    /// A successor of `kind` due `delay` seconds from now.
    init(kind: WorkerKind, delay: Double = 0.3) {
        self.kind = kind
        due = MonotonicClock.seconds() + delay
    }

    /// Starts the successor in `pool` if it is due and not started yet; cheap otherwise, as
    /// it runs with every packet.
    mutating func startIfDue(in pool: DecodeWorkers) {
        guard !started, MonotonicClock.seconds() >= due, SpareWorker.wanted.load(ordering: .relaxed) else { return }
        started = true
        pool.startAhead(kind: kind)
    }
}

extension DecodeWorkers {
    /// Whether workers are started ahead for a next item once the current one is under way
    /// (true unless set otherwise). A queue with no other item turns it off: the container's
    /// and the decoder's successors would hold memory nothing uses. Turned on again, a
    /// successor starts with the current item's next packet.
    public static var startsWorkersForNextItem: Bool {
        get { SpareWorker.wanted.load(ordering: .relaxed) }
        set { SpareWorker.wanted.store(newValue, ordering: .relaxed) }
    }
}
