import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc
import MediaCore

/// Downloads a whole web source into the disk cache on a thread of its own: preloading
/// (`preloadVideo()`, `--preload`), so an item plays from disk when its turn comes.
///
/// It reads through the same `CachingIO` the player uses, so the same rules hold: the same
/// protocol whitelist, timeouts and TLS checks, and a file appears under its final name
/// only when complete. A cancelled or failed download leaves nothing behind.
public final class Downloader: Sendable {
    private let interrupt: Interrupt
    private let done = DispatchSemaphore(value: 0)

    /// How a download ended: the cache path of the complete file, or why not.
    public typealias Outcome = Result<String, AVError>

    /// Starts downloading `url` into `options.cache` (filed under `options.cacheDirectory`);
    /// `completion` runs once, on the download thread. A URL already cached completes at
    /// once with its path.
    public init(url: String, options: SourceOptions, completion: @escaping @Sendable (Outcome) -> Void) {
        interrupt = Interrupt(timeout: options.effectiveTimeout)
        let interrupt = self.interrupt
        let done = self.done
        NamedThread.start(name: "mv-download") {
            completion(Downloader.run(url: url, options: options, interrupt: interrupt))
            done.signal()
        }
    }

    /// Stops the download (its partial file is deleted). Safe from any thread.
    public func cancel() { interrupt.cancel() }

    /// Waits until the download thread has finished (tests, shutdown).
    public func wait(timeout: Double) -> Bool {
        if done.wait(timeout: .now() + timeout) == .success {
            done.signal()
            return true
        }
        return false
    }

    /// The whole download, on the calling thread; `interrupt` cancels it.
    static func run(url: String, options: SourceOptions, interrupt: Interrupt) -> Outcome {
        guard SourceOptions.isNetwork(url) else { return .failure(AVError(message: "\(url): only web media is downloaded")) }
        guard let cache = options.cache else { return .failure(AVError(message: "no cache to download into")) }
        if let hit = cache.lookup(url) { return .success(hit) }
        let cb = interrupt.callback
        // The caller's callback is for the player's copy; a preload reports through its own.
        let sinks = CachingIO.Sinks(cache: cache, directory: options.cacheDirectory, memory: nil, onCached: nil)
        let io: CachingIO
        interrupt.arm()
        do {
            io = try CachingIO.open(url: url, options: options, sinks: sinks, interrupt: cb)
        } catch {
            return .failure(AVError(code: error.code, message: "\(SourceOptions.displayName(url)): \(error.message)"))
        }
        defer { io.close() }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 * 1024)
        defer { buffer.deallocate() }
        while true {
            // The timeout is per read: a slow but steady download is fine, a stall is not.
            interrupt.arm()
            let n = io.read(into: buffer, size: 64 * 1024)
            interrupt.disarm()
            if n > 0 { continue }
            if n == cff_averror_eof, let path = io.cachedPath { return .success(path) }
            let why = io.failure?.message ?? (n == cff_averror_eof ? "the download could not be stored" : AVError.describe(n))
            return .failure(AVError(code: n, message: "\(SourceOptions.displayName(url)): download failed: \(why)"))
        }
    }
}
