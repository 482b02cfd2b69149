import Dispatch
import FoundationEssentials
import Glibc
import MediaCore

/// Downloaded images and GIFs kept in memory: the desktop form of MediaView's NSCache.
///
/// A least-recently-used map from the full URL to the file's bytes, with a byte budget.
/// Showing the same web picture again in one process opens it from here (through
/// `MemoryIO`) instead of asking the network.
public final class MemoryCache: Sendable {
    private struct State {
        var items: [String: Data] = [:]
        /// Keys, least recently used first.
        var order: [String] = []
        var bytes = 0
        var budget: Int
    }

    private let state: Locked<State>

    /// The process-wide cache the viewer uses.
    public static let shared = MemoryCache()

    /// An empty cache holding at most `budgetBytes`.
    public init(budgetBytes: Int = 64 << 20) {
        state = Locked(State(budget: max(0, budgetBytes)))
    }

    /// The byte budget; lowering it evicts at once.
    public var budgetBytes: Int {
        get { state.withLock { $0.budget } }
        set { state.withLock { $0.budget = max(0, newValue); MemoryCache.trim(&$0) } }
    }

    /// Bytes held now.
    public var totalBytes: Int { state.withLock { $0.bytes } }

    /// The bytes of `url`, marking it as just used.
    public func data(for url: String) -> Data? {
        state.withLock { s in
            guard let d = s.items[url] else { return nil }
            MemoryCache.touch(&s, url)
            return d
        }
    }

    /// Stores the complete bytes of `url`. Something larger than the whole budget is not
    /// kept (it would only push everything else out and then itself).
    public func insert(_ data: Data, for url: String) {
        state.withLock { s in
            guard data.count <= s.budget else { return }
            if let old = s.items[url] { s.bytes -= old.count }
            s.items[url] = data
            s.bytes += data.count
            MemoryCache.touch(&s, url)
            MemoryCache.trim(&s)
        }
    }

    /// Forgets the bytes of `url`.
    public func remove(_ url: String) {
        state.withLock { s in
            if let old = s.items.removeValue(forKey: url) { s.bytes -= old.count }
            s.order.removeAll { $0 == url }
        }
    }

    /// Forgets everything.
    public func removeAll() {
        state.withLock { s in
            s.items.removeAll()
            s.order.removeAll()
            s.bytes = 0
        }
    }

    private static func touch(_ s: inout State, _ url: String) {
        s.order.removeAll { $0 == url }
        s.order.append(url)
    }

    private static func trim(_ s: inout State) {
        while s.bytes > s.budget, !s.order.isEmpty {
            let oldest = s.order.removeFirst()
            if let d = s.items.removeValue(forKey: oldest) { s.bytes -= d.count }
        }
    }
}
