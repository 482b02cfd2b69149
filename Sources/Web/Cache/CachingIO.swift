import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc
import MediaCore

/// Web media read over `HTTPFetch` and kept, byte for byte, in a file as it arrives: one
/// download serves both the player and the cache.
///
/// Every byte that arrives at offset `o` is written at `o` into a sparse file and the
/// covered ranges are tracked; reads of bytes that have arrived come from that file. So a
/// player can go back anywhere in what has arrived, whatever the server supports. Going
/// forward past it asks for a Range when the server takes them, and otherwise reads on to
/// the target (what `ffmpeg -i` does with such a server).
///
/// The copy becomes the cached file only when the transfer provably ended: every byte of a
/// Content-Length, or a chunked answer's last chunk. An answer that ends at the close
/// without a length plays, but is not cached; one cut short fails with a one-line reason,
/// and its copy is deleted.
package final class CachingIO: CustomIO, @unchecked Sendable {
    /// Where the bytes go besides the reader.
    package struct Sinks: Sendable {
        /// The disk cache the whole file is committed to.
        package var cache: MediaCache?
        /// The cache directory it is filed under.
        package var directory: MediaCache.Directory = .video
        /// The memory cache a small file is kept in.
        package var memory: MemoryCache?
        /// Told the cache path once the whole file is stored.
        package var onCached: (@Sendable (String) -> Void)?

        /// The caches a download is copied into; none for a read that keeps nothing.
        package init(cache: MediaCache?, directory: MediaCache.Directory = .video, memory: MemoryCache? = nil,
                     onCached: (@Sendable (String) -> Void)? = nil) {
            self.cache = cache
            self.directory = directory
            self.memory = memory
            self.onCached = onCached
        }
    }

    let url: String
    private let sinks: Sinks
    private let options: SourceOptions
    private let interrupt: AVIOInterruptCB
    private var fetchURL: String
    private var connection: HTTPConnection?
    /// The offset of the connection's next byte.
    private var connectionOffset: Int64 = 0
    private var seekable = false
    /// Whether `size` is the server's word (Content-Length, Content-Range or the last chunk).
    private var sizeProven = false
    private var position: Int64 = 0
    /// Total size; -1 while unknown.
    package private(set) var size: Int64 = -1
    private var ranges = ByteRanges()
    private var file: TransferFile?
    /// The final cache path, once the whole file was stored.
    package private(set) var cachedPath: String?
    private var finished = false

    /// Forward jumps up to this far read on rather than open a new connection.
    private static let readOnLimit: Int64 = 512 * 1024

    private init?(url: String, options: SourceOptions, sinks: Sinks, interrupt: AVIOInterruptCB) {
        self.url = url
        self.options = options
        self.sinks = sinks
        self.interrupt = interrupt
        fetchURL = url
        super.init()
    }

    /// Connects (following at most 8 redirects) and checks the answer is media.
    package static func open(url: String, options: SourceOptions, sinks: Sinks,
                     interrupt: AVIOInterruptCB) throws(AVError) -> CachingIO {
        guard let io = CachingIO(url: url, options: options, sinks: sinks, interrupt: interrupt) else {
            throw AVError(message: "out of memory")
        }
        let opened: HTTPFetch.Opened
        do {
            opened = try HTTPFetch.open(url, from: 0, options: options, interrupt: interrupt)
        } catch {
            io.close()
            throw error
        }
        io.take(opened)
        if options.needsByteRanges && !io.seekable {
            // Stopped at its first answer: the bytes already on their way are all it sends.
            io.close()
            throw AVError(message: "the server of \(SourceOptions.redacted(url)) does not take byte ranges")
        }
        if let total = opened.total { io.size = total; io.sizeProven = true }
        io.file = TransferFile(cache: sinks.cache, size: io.size)
        return io
    }

    private func take(_ o: HTTPFetch.Opened) {
        connection?.close()
        connection = o.connection
        connectionOffset = o.start
        fetchURL = o.url
        seekable = o.seekable && o.total != nil
    }

    override package func read(into buffer: UnsafeMutablePointer<UInt8>, size want: Int) -> Int32 {
        if let f = failure { return f.code < 0 ? f.code : cff_averror(EIO) }
        if size >= 0 && position >= size {
            finishIfComplete()
            return cff_averror_eof
        }
        // What has arrived is read back from the copy.
        if let end = ranges.end(from: position), let f = file {
            let n = f.read(buffer, count: Int(min(Int64(want), end - position)), at: position)
            if n > 0 {
                position += Int64(n)
                return Int32(n)
            }
        }
        if let code = reachPosition() { return code }
        let r = network(into: buffer, count: want)
        if r > 0 { position += Int64(r) }
        return r
    }

    /// Brings the connection to `position`: on from where it is, or by a new request.
    /// Returns an error code, or nil when the next network byte is the one wanted.
    private func reachPosition() -> Int32? {
        if connection != nil && connectionOffset == position { return nil }
        let ahead = position - connectionOffset
        let readOn = connection != nil && ahead > 0 && (!seekable || ahead <= CachingIO.readOnLimit)
        if !readOn {
            // A server that takes ranges is asked for the target; any other starts over,
            // and what passes on the way there is kept again.
            do {
                take(try HTTPFetch.open(fetchURL, from: seekable ? position : 0, options: options, interrupt: interrupt))
            } catch {
                failure = error
                return error.code < 0 ? error.code : cff_averror(EIO)
            }
        }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 * 1024)
        defer { scratch.deallocate() }
        while connectionOffset < position {
            let r = network(into: scratch, count: Int(min(64 * 1024, position - connectionOffset)))
            if r < 0 { return r }
        }
        return nil
    }

    /// One read from the connection, stored at its offset.
    private func network(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        guard let c = connection else { return cff_averror_eof }
        let started = MonotonicClock.seconds()
        switch c.read(into: buffer, count: count) {
        case .data(let n):
            store(buffer, count: n, at: connectionOffset)
            connectionOffset += Int64(n)
            return Int32(n)
        case .end(let proven):
            connection = nil
            if size < 0 {
                size = connectionOffset
                sizeProven = proven
            }
            finishIfComplete()
            return cff_averror_eof
        case .cut:
            connection = nil
            let got = size > 0 ? "got \(connectionOffset) of the \(size) bytes announced" : "after \(connectionOffset) bytes"
            let what = size > 0 && sizeProven ? "connection closed early" : "the transfer was cut off before its last chunk"
            return fail(cff_averror(EIO), "\(what): \(got)")
        case .failed(let code):
            connection = nil
            return fail(code, NetworkErrors.readFailure(code, position: connectionOffset, size: size,
                                                        elapsed: MonotonicClock.seconds() - started,
                                                        timeout: options.effectiveTimeout))
        }
    }

    private func fail(_ code: Int32, _ message: String) -> Int32 {
        failure = AVError(code: code, message: message)
        file?.discard()
        file = nil
        return code
    }

    override package func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & Int32(AVSEEK_SIZE) != 0 { return size >= 0 ? size : Int64(cff_averror(ENOSYS)) }
        guard let t = CustomIO.target(offset: offset, whence: whence, current: position, size: size), t >= 0 else {
            return Int64(cff_averror(EINVAL))
        }
        // The bytes are fetched (or read on to) by the next read, not here.
        position = t
        return t
    }

    /// Stops the download. An incomplete copy is deleted: only whole files enter the cache.
    override package func close() {
        connection?.close()
        connection = nil
        file?.discard()
        file = nil
        super.close()
    }

    deinit { file?.discard() }

    private func store(_ buffer: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int64) {
        // A full or broken disk: go on playing, just without keeping a copy.
        if let f = file, !f.write(buffer, count: count, at: offset) {
            f.discard()
            file = nil
        }
        if file != nil { ranges.insert(offset, offset + Int64(count)) }
        finishIfComplete()
    }

    /// Commits the copy once every byte of a provably complete transfer has been kept.
    private func finishIfComplete() {
        guard !finished, sizeProven, size > 0, ranges.covers(0, size), let f = file else { return }
        finished = true
        file = nil
        guard !f.holdsPlaylist else { f.discard(); return }
        if let memory = sinks.memory, size <= Int64(memory.budgetBytes), let bytes = f.contents(size: size) {
            memory.insert(Data(bytes), for: url)
        }
        if let cache = sinks.cache, let final = f.commit(to: cache, url: url, directory: sinks.directory) {
            cachedPath = final
            sinks.onCached?(final)
        } else {
            f.discard()
        }
    }
}
