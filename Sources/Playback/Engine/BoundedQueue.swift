import Dispatch
import FoundationEssentials
import Glibc
import MediaCore

/// A blocking FIFO with a capacity, joining two pipeline stages (demux -> decode -> output).
///
/// `push` blocks while full and `pop` while empty, so a fast stage waits for a slow one
/// instead of buffering without bound. `abort()` wakes every waiter for shutdown. A
/// condition variable is needed for the waits, which Synchronization's `Mutex` does not
/// offer, hence `Condition`.
final class BoundedQueue<Element>: @unchecked Sendable {
    // @unchecked: every stored property is read and written only with `cond` held.
    private let cond = Condition()
    /// Taken slots are set to nil at once: a popped frame or packet must not stay alive
    /// in the array until the next compaction (that held up to 64 decoded frames).
    private var items: [Element?] = []
    private var head = 0
    private var aborted = false
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        items.reserveCapacity(capacity)
    }

    /// Appends, waiting while full. Returns false when the queue was aborted.
    @discardableResult
    func push(_ item: Element) -> Bool {
        cond.lock(); defer { cond.unlock() }
        while items.count - head >= capacity && !aborted { cond.wait() }
        if aborted { return false }
        items.append(item)
        cond.broadcast()
        return true
    }

    /// Appends without waiting, even past capacity (for end and flush markers).
    func pushForced(_ item: Element) {
        cond.lock(); defer { cond.unlock() }
        items.append(item)
        cond.broadcast()
    }

    /// Removes the oldest element, waiting while empty. Nil once aborted.
    func pop() -> Element? {
        cond.lock(); defer { cond.unlock() }
        while items.count == head && !aborted { cond.wait() }
        if aborted { return nil }
        return take()
    }

    /// Removes the oldest element if there is one, without waiting.
    func tryPop() -> Element? {
        cond.lock(); defer { cond.unlock() }
        return items.count > head ? take() : nil
    }

    /// The oldest element, left in place.
    func peek() -> Element? {
        cond.lock(); defer { cond.unlock() }
        return items.count > head ? items[head]! : nil
    }

    var count: Int {
        cond.lock(); defer { cond.unlock() }
        return items.count - head
    }

    /// Drops everything queued (a seek made it stale).
    func removeAll() {
        cond.lock(); defer { cond.unlock() }
        items.removeAll(keepingCapacity: true)
        head = 0
        cond.broadcast()
    }

    /// Wakes all waiters; every later push fails and pop returns nil.
    func abort() {
        cond.lock(); defer { cond.unlock() }
        aborted = true
        items.removeAll()
        head = 0
        cond.broadcast()
    }

    private func take() -> Element {
        let item = items[head]!
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 {
            items.removeFirst(head)
            head = 0
        }
        cond.broadcast()
        return item
    }
}
