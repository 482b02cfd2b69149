import CRows
import Glibc
import MediaCore

/// Writes a pyramid's bands of rows into its store on a thread of its own, while the pass
/// that makes them reads and halves the next rows.
///
/// The fitted picture of a large PNG or TIFF waits for the whole pass; writing about five
/// bytes a pixel into the store on the same thread added half as much again to that wait
/// (the kernel's copy into the page cache), while the second core had nothing to do.
final class TileWriter: @unchecked Sendable {
    // @unchecked: `jobs`, `writing`, `closing`, `failure`, `waited` and `throughCache` are
    // touched under `lock` only; `direct` and `pastCache` by the writer's thread only, and
    // by `finish` once that thread has ended.
    // A band's memory is the writer's from `submit` until it is no longer queued or being
    // written, and the builder waits for that (`waitUntilFree`) before it fills it again.

    /// Rows `start..<start + rows` of level `level`, in `band`, `stride` bytes a row.
    struct Job {
        let level: Int
        let band: UnsafeMutablePointer<UInt8>
        let stride: Int
        let start: Int
        let rows: Int
    }

    private let fd: Int32
    private let layout: PyramidLayout
    private let lock = Condition()
    private var jobs: [Job] = []
    private var writing: UnsafeMutablePointer<UInt8>?
    private var closing = false
    private var failure: String?
    private var thread: JoinableThread?
    /// Whether whole blocks go to the disk past the page cache (the writer thread's alone):
    /// the tiles are a gigabyte for 200 MP, which nothing reads until the user zooms in.
    private var direct: Bool
    /// Where a tile's rows are gathered for such a write, aligned as the disk needs.
    private let staging: UnsafeMutableRawPointer?
    /// Seconds the pass has waited for a band to be written, and whether the writes go back
    /// through the page cache: past it, the pass moves at the disk's pace. A disk of 2 GB/s
    /// keeps that pace; one of 400 MB/s held a 200 MP picture's first view to 3-6 s, and
    /// through the cache the kernel writes behind while the picture is shown.
    private var waited = 0.0
    private var throughCache = false
    /// Bytes written past the cache, and the seconds those writes took.
    private var pastCache = (bytes: 0, seconds: 0.0)
    /// The writes go through the cache once the pass has waited this long in all for a disk
    /// slower than `slowDisk` bytes a second past the cache. A pass waiting on a writer that
    /// only lacks a core would lose by it: the cache's copy costs more of a core.
    static let patience = 0.05
    static let slowDisk = 1_000_000_000.0

    /// A writer into `fd`, which stays the caller's, placing tiles as `layout` says, at most
    /// `bandRows` rows a job.
    init(fd: Int32, layout: PyramidLayout, bandRows: Int) {
        (self.fd, self.layout) = (fd, layout)
        var aligned: UnsafeMutableRawPointer?
        let alignment = Int(CROWS_DIRECT_ALIGNMENT)
        staging = posix_memalign(&aligned, alignment, layout.side * 4 * bandRows) == 0 ? aligned : nil
        // A file system without it (tmpfs on older kernels) keeps the cache.
        direct = staging != nil && crows_bypass_cache(fd, 1) == 0
        thread = NamedThread.startJoinable(name: "tile-writer") { [self] in run() }
    }

    deinit { free(staging) }

    /// Queues `job`; its band is not to be touched until `waitUntilFree` says so.
    func submit(_ job: Job) {
        lock.withLock {
            jobs.append(job)
            lock.broadcast()
        }
    }

    /// Waits until `band` is neither queued nor being written.
    func waitUntilFree(_ band: UnsafeMutablePointer<UInt8>) {
        lock.withLock {
            guard writing == band || jobs.contains(where: { $0.band == band }) else { return }
            let start = MonotonicClock.seconds()
            while writing == band || jobs.contains(where: { $0.band == band }) { lock.wait() }
            waited += MonotonicClock.seconds() - start
        }
    }

    /// Sends the writes not yet begun through the page cache, as when the disk falls behind.
    func preferCache() { lock.withLock { throughCache = true } }

    /// Writes what is queued, ends the thread and says why a write failed (nil: none did).
    func finish() -> String? {
        lock.withLock {
            closing = true
            lock.broadcast()
        }
        thread?.join()
        thread = nil
        // The tiles are read back as the user pans, in pieces the disk's blocks do not align with.
        if direct { _ = crows_bypass_cache(fd, 0) }
        return lock.withLock { failure }
    }

    private func run() {
        while true {
            lock.lock()
            while jobs.isEmpty && !closing { lock.wait() }
            guard !jobs.isEmpty else { lock.unlock(); return }
            let job = jobs.removeFirst()
            writing = job.band
            let failed = failure != nil, cache = throughCache
            lock.unlock()
            if cache && direct {
                _ = crows_bypass_cache(fd, 0)
                direct = false
            }
            // After one failure the store is given up: the rest is not written.
            let why = failed ? nil : write(job)
            let slow = pastCache.seconds > 0 && Double(pastCache.bytes) / pastCache.seconds < Self.slowDisk
            lock.withLock {
                if slow && waited > Self.patience { throughCache = true }
                if let why, failure == nil { failure = why }
                writing = nil
                lock.broadcast()
            }
        }
    }

    /// Writes the job's rows into each tile of their row of tiles; nil when all went.
    private func write(_ job: Job) -> String? {
        let tileRow = job.start / layout.side, within = job.start % layout.side
        var pieces = [iovec](repeating: iovec(), count: job.rows)
        for column in 0..<layout.grid(level: job.level).columns {
            let size = layout.tileSize(level: job.level, column: column, row: tileRow)
            for r in 0..<job.rows {
                pieces[r] = iovec(iov_base: UnsafeMutableRawPointer(job.band + r * job.stride + column * layout.side * 4),
                                  iov_len: size.width * 4)
            }
            let want = size.width * 4 * job.rows
            // A tile's rows lie one after another in its slot: these go after the ones before.
            let at = off_t(layout.offset(level: job.level, column: column, row: tileRow) + within * size.width * 4)
            let wrote = write(job, column: column, width: size.width, at: at, bytes: want, pieces: pieces)
            guard wrote == want else { return wrote < 0 ? String(cString: strerror(errno)) : "the disk is full" }
        }
        return nil
    }

    /// One tile's rows of `job`: past the cache when they fill whole blocks, else through it.
    /// lseek and write or writev, which a worker's system calls allow on the file it was
    /// handed; only this thread moves the store's offset.
    private func write(_ job: Job, column: Int, width: Int, at: off_t, bytes: Int, pieces: [iovec]) -> Int {
        let alignment = Int(CROWS_DIRECT_ALIGNMENT)
        if direct, let staging, Int(at) % alignment == 0, bytes % alignment == 0 {
            let start = MonotonicClock.seconds()
            let wrote = crows_write_rows(fd, at, job.band + column * layout.side * 4, job.stride, width * 4, Int32(job.rows),
                                         staging.assumingMemoryBound(to: UInt8.self))
            if wrote > 0 { pastCache = (pastCache.bytes + wrote, pastCache.seconds + MonotonicClock.seconds() - start) }
            if wrote >= 0 || errno != EINVAL { return wrote }
            // The file system took the flag but not the write: the cache from now on.
            _ = crows_bypass_cache(fd, 0)
            direct = false
        }
        // An edge tile's rows, narrower than a block: through the cache for this write.
        let bypassed = direct && crows_bypass_cache(fd, 0) == 0
        defer { if bypassed { _ = crows_bypass_cache(fd, 1) } }
        guard lseek(fd, at, SEEK_SET) == at else { return -1 }
        return pieces.withUnsafeBufferPointer { writev(fd, $0.baseAddress, Int32(job.rows)) }
    }
}
