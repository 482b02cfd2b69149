import Dispatch
import FoundationEssentials
import Glibc
import MediaCore
import Playback
import Web

/// The viewer's caches, as MediaView's `CacheManager`: web images and GIFs in memory, and
/// every kind of web media on disk under `$XDG_CACHE_HOME/mediaview` (or `directory`).
///
/// The disk cache is opened on first need. If its directory cannot be made private and
/// writable, media plays without it and one warning says so.
@MainActor
public final class CacheManager {
    /// The manager every view uses.
    public static let shared = CacheManager()

    /// The cache's subdirectories (`.all` for every one).
    public typealias Directory = MediaCache.Directory

    /// Keep downloaded web media in the caches. Off until the app turns it on, as in
    /// MediaView (the program `mediaview` turns it on unless `--no-cache`).
    public var cacheMediaWhenDownloaded = false
    /// Root of the disk cache; changing it reopens the cache there.
    public var directory: String = MediaCache.defaultRoot {
        didSet { if directory != oldValue { reopen() } }
    }
    /// Byte cap of the disk cache; least recently used files go first.
    public var capBytes: Int64 = 1 << 30 {
        didSet { disk?.capBytes = capBytes }
    }
    /// Byte budget of the in-memory image and GIF cache.
    public var memoryBudgetBytes: Int {
        get { memory.budgetBytes }
        set { memory.budgetBytes = newValue }
    }
    /// The in-memory cache of web images and GIFs.
    public let memory = MemoryCache.shared

    private var opened = false
    private var disk: MediaCache?
    private var warned = false

    /// A manager of its own, for an app that keeps caches apart.
    public init() {}

    /// The disk cache, opened (and made private) on first use; nil when caching is off or
    /// the directory is unusable.
    public var diskCache: MediaCache? {
        guard cacheMediaWhenDownloaded else { return nil }
        return openedDisk
    }

    /// The disk cache whether or not caching is on: a preload the app asked for keeps its
    /// file there even when downloads are not otherwise cached.
    var openedDisk: MediaCache? {
        if !opened {
            opened = true
            do {
                disk = try MediaCache(root: directory, capBytes: capBytes)
                if disk?.isWritable == false && !warned {
                    warned = true
                    StandardError.write("mediaview: cache directory \(directory) is read-only; cached media plays, nothing new is kept")
                }
            } catch {
                disk = nil
                if !warned {
                    warned = true
                    StandardError.write("mediaview: \(error.message); playing without caching")
                }
            }
        }
        return disk
    }

    /// The complete cached copy of `url`, if there is one.
    public func cachedPath(for url: String) -> String? { diskCache?.lookup(url) }

    /// Whether downloaded web media is kept in the caches, for the shared manager (as
    /// `CacheManager.cacheMediaWhenDownloaded = true` in MediaView).
    public static var cacheMediaWhenDownloaded: Bool {
        get { shared.cacheMediaWhenDownloaded }
        set { shared.cacheMediaWhenDownloaded = newValue }
    }

    /// Deletes the shared manager's cached files: one directory's, or `.all`.
    public static func clear(directory: Directory) {
        shared.clear(directory: directory)
    }

    /// Deletes cached files: one directory's, or `.all`. The memory cache goes with `.all`
    /// and `.image`.
    public func clear(directory: Directory = .all) {
        diskCache?.clear(directory)
        if directory == .all || directory == .image { memory.removeAll() }
    }

    /// The command line's `--cache-dir` and `--no-cache`.
    public func configure(directory dir: String?, enabled: Bool) {
        cacheMediaWhenDownloaded = enabled
        if let dir, !dir.isEmpty { directory = dir }
    }

    private func reopen() {
        opened = false
        disk = nil
    }

    /// The source options for playing `url` as `kind`: which caches to read and fill, and
    /// who hears when the download is complete.
    func sourceOptions(_ base: SourceOptions, url: String, kind: MediaView.MediaKind?,
                       onCached: @escaping @Sendable (String) -> Void, streamToDisk: Bool,
                       preloads: Bool = false) -> SourceOptions {
        var o = base
        guard SourceOptions.isNetwork(url) else { return o }
        guard cacheMediaWhenDownloaded else {
            // A view that preloads plays its copy from disk, and nothing is written; any
            // other view leaves the disk alone (`--no-cache` reads nothing either).
            if preloads, let disk = openedDisk, disk.lookup(url) != nil { o.cache = disk; o.cacheDirectory = CacheManager.directory(for: kind) }
            return o
        }
        let still = kind == .image || kind == .gif
        o.memoryCache = still ? memory : nil
        // Reading from the disk cache is always right; writing video and audio while it
        // streams is what `shouldCacheStreamedMedia` decides.
        o.cache = diskCache
        o.cacheDirectory = CacheManager.directory(for: kind)
        if !still && !streamToDisk { o.cache = nil }
        o.onCached = onCached
        return o
    }

    static func directory(for kind: MediaView.MediaKind?) -> Directory {
        switch kind {
        case .image, .gif: return .image
        case .audio: return .audio
        default: return .video
        }
    }

    /// Runs `work` on the main thread, from a download thread: through the main dispatch
    /// queue, which the viewer's loop serves between turns (and wakes for), as it does the
    /// app's own main-queue work.
    nonisolated static func post(_ work: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated { work() } }
    }
}
