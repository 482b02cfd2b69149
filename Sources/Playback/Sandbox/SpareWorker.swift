import MediaCore

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

    /// A successor of `kind` due `delay` seconds from now.
    init(kind: WorkerKind, delay: Double = 0.3) {
        self.kind = kind
        due = MonotonicClock.seconds() + delay
    }

    /// Starts the successor in `pool` if it is due and not started yet; cheap otherwise, as
    /// it runs with every packet.
    mutating func startIfDue(in pool: DecodeWorkers) {
        guard !started, MonotonicClock.seconds() >= due else { return }
        started = true
        pool.startAhead(kind: kind)
    }
}
