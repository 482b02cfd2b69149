import Glibc
import MediaCore
import ThumbnailCache
import Web

/// Thumbnails made in the background for a gallery: the cells on screen first, and only
/// what is still wanted.
///
/// Two threads at a low priority (nice 10, so the picture on screen and the rest of the
/// desktop come first) take files from the wanted list in its order; a new list replaces
/// the old one, so scrolling on drops the files that scrolled away before they cost
/// anything. Each file is looked up in the desktop's thumbnail cache first, made and saved
/// there when missing. The decoding (of the file, and of a cached PNG) is done by each
/// thread's own sandboxed worker process (`ThumbnailSandbox`): a folder is parsed without
/// the user opening any of its files, so a crafted one must not reach the viewer. Results wait in a memory cache of bounded size, the least recently
/// shown going first, so a gallery of 100,000 files holds no more than a few screens.
public final class ThumbnailWorker: @unchecked Sendable {
    // @unchecked: every field below `lock` is guarded by it; `store`, `size` and `wake` never change.
    let store: ThumbnailStore?
    /// The size of the thumbnails made.
    public let size: ThumbnailStore.Size
    let wake: @Sendable () -> Void
    let maxPixels: Int
    /// How many thumbnails are made at once.
    let threads: Int
    let lock = Condition()
    /// Each thread's own decode worker (one per thread, so two thumbnails are made at once
    /// as before), each used only by its thread.
    let sandboxes: [ThumbnailSandbox]
    private var wanted: [String] = []
    private var cursor = 0
    private var busy: Set<String> = []
    private var memory: RecentThumbnails
    private var events: [Event] = []
    private var saving = true
    private var closed = false
    private var started = false
    /// Worker threads still running; `close` waits for them, so none is inside a decoder
    /// when the program exits and the libraries' globals are torn down under it.
    private var running = 0

    /// What became of one file.
    public enum Outcome: Sendable {
        /// Its thumbnail, straight-alpha RGBA, and for a video how long it plays in seconds
        /// (nil for stills, animated pictures and sound).
        case picture(StillDecoder.RGBA, length: Double?)
        /// The file holds no picture (sound without cover art).
        case noPicture
        /// The file could not be read or decoded; why, in one line.
        case failed(String)
    }

    /// One file done, for a log or a benchmark.
    public struct Event: Sendable {
        /// Where the thumbnail came from.
        public enum Source: String, Sendable {
            /// The desktop's thumbnail cache.
            case cache
            /// Decoded from the file now (and saved, when the cache can be written).
            case made
            /// It could not be made (or a failure recorded before still holds).
            case failed
            /// The file has no picture.
            case none
        }
        /// The file.
        public let path: String
        /// Where its thumbnail came from.
        public let source: Source
        /// Seconds the worker spent on it.
        public let seconds: Double
        /// Why no thumbnail could be made, when none could.
        public let reason: String?
        /// Why the thumbnail cache cannot be written, on the first file that found out
        /// (and on no other, so it is said once).
        public let cacheProblem: String?
    }

    /// A worker making `size` thumbnails, using the cache in `store` (nil: none), holding
    /// at most `memoryBudget` bytes of pictures; `wake` is called from its threads whenever
    /// a thumbnail is ready; `threads` makers work at once (two: one per core of a small
    /// machine), each decoding in its own sandboxed process as `sandbox` says, a file
    /// getting `timeout` seconds there.
    public init(store: ThumbnailStore?, size: ThumbnailStore.Size, memoryBudget: Int = 48 << 20,
                maxPixels: Int = 100_000_000, threads: Int = 2, sandbox: SandboxMode = .automatic,
                timeout: Double = 10, wake: @escaping @Sendable () -> Void) {
        self.threads = max(1, threads)
        sandboxes = (0..<max(1, threads)).map { _ in
            ThumbnailSandbox(mode: sandbox, timeout: timeout, testing: DecodeWorkers.shared.testing)
        }
        self.store = store
        self.size = size
        self.wake = wake
        self.maxPixels = maxPixels
        memory = RecentThumbnails(budget: memoryBudget)
    }

    deinit { close() }

    /// The files wanted now, most wanted first (the cells on screen, then those next to
    /// them); files of an earlier list that are not in this one are no longer made.
    public func want(_ paths: [String]) {
        lock.withLock {
            guard !closed else { return }
            wanted = paths
            cursor = 0
            if !started {
                started = true
                running = threads
                for i in 0..<threads { NamedThread.start(name: "mv-thumbs\(i)") { [self] in run(sandboxes[i]) } }
            }
            lock.broadcast()
        }
    }

    /// What became of `path`, if it is done; counts as a use for the memory cache.
    public func outcome(for path: String) -> Outcome? {
        lock.withLock { memory.use(path) }
    }

    /// The files done since the last call.
    public func takeEvents() -> [Event] {
        lock.withLock {
            defer { events.removeAll() }
            return events
        }
    }

    /// Thumbnails whose pixels came from a sandboxed worker (made from a file, or a cached
    /// one decoded): how a test tells this process decoded none itself.
    public var thumbnailsFromWorkers: Int { sandboxes.reduce(0) { $0 + $1.decoded.load(ordering: .relaxed) } }

    /// Process ids of the decode workers running now: a photos worker per thread, and a
    /// drawings one beside it once a folder had an SVG, AVIF, HEIC or JPEG XL.
    public var workerPIDs: [Int32] { sandboxes.flatMap { s in s.pids.withLock { Array($0.values) } } }

    /// Pictures held in memory, in bytes (bounded by the budget given).
    public var memoryInUse: Int { lock.withLock { memory.bytes } }

    /// Stops the threads after the file each is on, and waits for them (a few seconds at
    /// most: one thumbnail's work is bounded); safe more than once.
    public func close() {
        lock.withLock {
            closed = true
            lock.broadcast()
            let deadline = MonotonicClock.seconds() + 3
            while running > 0 {
                let left = deadline - MonotonicClock.seconds()
                guard left > 0 else { break }
                _ = lock.wait(seconds: left)
            }
        }
    }

    // MARK: The worker threads.

    private func run(_ sandbox: ThumbnailSandbox) {
        // Lower priority for this thread only (Linux's setpriority on a thread id): the shown
        // picture, its sound and the desktop come first; unlike SCHED_IDLE, a busy machine
        // still leaves the gallery some time.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        while let path = next() {
            let start = MonotonicClock.seconds()
            let (outcome, source, cacheProblem) = make(path, sandbox: sandbox)
            let seconds = MonotonicClock.seconds() - start
            lock.withLock {
                busy.remove(path)
                memory.insert(outcome, for: path)
                var reason: String?
                if case .failed(let why) = outcome { reason = why }
                events.append(Event(path: path, source: source, seconds: seconds, reason: reason, cacheProblem: cacheProblem))
            }
            wake()
        }
        sandbox.stop()
        lock.withLock {
            running -= 1
            lock.broadcast()
        }
    }

    /// The next wanted file not done and not being done by the other thread; nil once closed.
    private func next() -> String? {
        lock.withLock {
            while !closed {
                while cursor < wanted.count {
                    let p = wanted[cursor]
                    cursor += 1
                    if !memory.contains(p) && !busy.contains(p) {
                        busy.insert(p)
                        return p
                    }
                }
                lock.wait()
            }
            return nil
        }
    }

    private func make(_ path: String, sandbox: ThumbnailSandbox) -> (Outcome, Event.Source, String?) {
        var st = stat()
        guard FileName.withCString(path, { stat($0, &st) }) == 0 else {
            return (.failed("cannot read \(path): \(String(cString: strerror(errno)))"), .failed, nil)
        }
        // A pipe or a device named like a picture would block this thread in open for ever
        // (and with it every thumbnail after it): only regular files are read.
        guard st.st_mode & S_IFMT == S_IFREG else { return (.failed("\(path) is not a regular file"), .failed, nil) }
        let mtime = Int(st.st_mtim.tv_sec)
        let uri = ThumbnailStore.uri(forPath: ThumbnailStore.absolutePath(path))
        if let store {
            // The cache's PNG is read and checked by our own code; its pixels are decoded
            // by the worker, as a file's are: anyone who can write the cache could plant one.
            if let png = store.cachedPNG(uri, mtime: mtime, size: size),
               let p = sandbox.cached(png: png, name: SourceOptions.displayName(path), size: size.rawValue) {
                return (.picture(p, length: ThumbnailStore.length(ofPNG: png)), .cache, nil)
            }
            if store.hasFailure(uri, mtime: mtime) { return (.failed("no thumbnail could be made before"), .failed, nil) }
        }
        switch sandbox.thumbnail(path: path, size: size.rawValue, maxPixels: maxPixels) {
        case .picture(let (picture, length)):
            return (.picture(picture, length: length), .made, save { s throws(ThumbnailStore.SaveError) in
                try s.save(picture, uri: uri, mtime: mtime, size: size, length: length)
            })
        case .noPicture:
            return (.noPicture, .none, nil)
        case .stopped(let why):
            // Not recorded in the cache: a worker killed or out of time may well make it next time.
            return (.failed(why), .failed, nil)
        case .broken(let why):
            let problem = save { s throws(ThumbnailStore.SaveError) in try s.recordFailure(uri, mtime: mtime) }
            return (.failed(why), .failed, problem)
        }
    }

    /// Runs a write to the cache unless writing failed before; the first failure is
    /// returned (to be said once) and stops all later writes. A failure of one file's slot
    /// alone (a folder sits under its name) stops nothing.
    private func save(_ body: (ThumbnailStore) throws(ThumbnailStore.SaveError) -> Void) -> String? {
        guard let store, lock.withLock({ saving }) else { return nil }
        do {
            try body(store)
            return nil
        } catch {
            if error.onlyThisFile { return nil }
            let first = lock.withLock {
                defer { saving = false }
                return saving
            }
            return first ? "thumbnails are not saved (\(error.description))" : nil
        }
    }
}
