import Synchronization

/// The newest seek generation of one player. Every packet and frame carries the generation
/// it was made in; a stage drops what is older than this where it meets it (ffplay's
/// scheme), so no stale picture or sound survives a seek.
final class SeekSerial: Sendable {
    // An atomic rather than a lock: one word, bumped by a seek on the main thread and read
    // by each decode stage once per packet, where a lock would be taken thousands of times
    // a second for nothing.
    private let value = Atomic<Int>(0)

    /// The generation now playing.
    var current: Int { value.load(ordering: .relaxed) }

    /// Starts a new generation and returns it.
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}
