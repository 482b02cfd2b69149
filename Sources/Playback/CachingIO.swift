import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc

/// Web media read through FFmpeg's own http/https protocol and copied, byte for byte, into
/// the cache as it is read: one download serves both the player and the cache.
///
/// Every byte read at offset `o` is written at `o` into a sparse temporary file, and the
/// covered ranges are tracked. Seeks (HTTP Range requests) leave holes that later reads may
/// fill; once the ranges cover `[0, size)` the file is fsynced and renamed into the cache.
/// A download that stops early or fails leaves nothing but a deleted temporary.
///
/// Failures are kept as a sentence a user understands (`failure`), since the callback can
/// only hand FFmpeg a number.
final class CachingIO: CustomIO, @unchecked Sendable {
    /// Where the bytes go besides the reader.
    struct Sinks: Sendable {
        var cache: MediaCache?
        var directory: MediaCache.Directory = .video
        var memory: MemoryCache?
        var onCached: (@Sendable (String) -> Void)?
    }

    let url: String
    private var inner: UnsafeMutablePointer<AVIOContext>?
    private let sinks: Sinks
    private let timeout: Double
    private var position: Int64 = 0
    /// Total size from Content-Length; -1 while unknown.
    private(set) var size: Int64 = -1
    private var ranges = ByteRanges()
    private var file: (fd: Int32, path: String)?
    private var memoryCopy: [UInt8]?
    /// The final cache path, once the whole file was stored.
    private(set) var cachedPath: String?
    private var finished = false

    private init?(url: String, sinks: Sinks, timeout: Double) {
        self.url = url
        self.sinks = sinks
        self.timeout = timeout
        super.init()
    }

    /// Connects (following at most FFmpeg's 8 redirects) and checks the answer is media.
    static func open(url: String, options: SourceOptions, sinks: Sinks,
                     interrupt: AVIOInterruptCB) throws(AVError) -> CachingIO {
        guard let io = CachingIO(url: url, sinks: sinks, timeout: options.effectiveTimeout) else {
            throw AVError(message: "out of memory")
        }
        var dict: OpaquePointer? = nil
        defer { av_dict_free(&dict) }
        for (k, v) in options.formatOptions(for: url) { av_dict_set(&dict, k, v, 0) }
        var cb = interrupt
        var inner: UnsafeMutablePointer<AVIOContext>?
        let started = MonotonicClock.seconds()
        let r = avio_open2(&inner, url, AVIO_FLAG_READ, &cb, &dict)
        guard r >= 0, let inner else {
            io.close()
            throw AVError(code: r, message: NetworkErrors.openFailure(r, url: url, options: options,
                                                                       elapsed: MonotonicClock.seconds() - started))
        }
        io.inner = inner
        if let mime = CachingIO.mimeType(inner), mime.lowercased().hasPrefix("text/html") {
            io.close()
            throw AVError(code: cff_averror_invaliddata, message: "the server sent a web page (text/html), not media")
        }
        io.size = avio_size(inner)
        io.startSinks()
        return io
    }

    /// The temporary file (and memory copy) this download writes to, when wanted and possible.
    private func startSinks() {
        if let cache = sinks.cache, let t = cache.makeTemporary() {
            file = t
            // Reserving the size up front makes a full disk fail now rather than at the end.
            if size > 0 && ftruncate(t.fd, off_t(size)) != 0 { dropFile() }
        }
        if let memory = sinks.memory, size > 0, size <= Int64(memory.budgetBytes) {
            memoryCopy = [UInt8](repeating: 0, count: Int(size))
        }
    }

    override func read(into buffer: UnsafeMutablePointer<UInt8>, size want: Int) -> Int32 {
        guard let inner else { return cff_averror(EINVAL) }
        let started = MonotonicClock.seconds()
        let n = avio_read_partial(inner, buffer, Int32(want))
        if n > 0 {
            store(buffer, count: Int(n))
            return n
        }
        let code = n == 0 ? cff_averror_eof : n
        if code == cff_averror_eof {
            if size > 0 && position < size {
                failure = AVError(code: cff_averror(EIO), message:
                    "connection closed early: got \(position) of the \(size) bytes announced")
                return cff_averror(EIO)
            }
            if size < 0 && ranges.covers(0, position) { size = position }
            finishIfComplete()
            return cff_averror_eof
        }
        failure = AVError(code: code, message: NetworkErrors.readFailure(code, position: position, size: size,
                                                                         elapsed: MonotonicClock.seconds() - started,
                                                                         timeout: timeout))
        return code
    }

    override func seek(to offset: Int64, whence: Int32) -> Int64 {
        guard let inner else { return Int64(cff_averror(EINVAL)) }
        if whence & Int32(AVSEEK_SIZE) != 0 { return size >= 0 ? size : avio_size(inner) }
        let r = avio_seek(inner, offset, whence & ~Int32(AVSEEK_FORCE))
        if r >= 0 { position = r }
        return r
    }

    /// Stops the download. An incomplete copy is deleted: only whole files enter the cache.
    override func close() {
        if inner != nil { avio_closep(&inner) }
        dropFile()
        memoryCopy = nil
        super.close()
    }

    deinit { dropFile() }

    private func store(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) {
        if let f = file {
            var done = 0
            while done < count {
                let w = pwrite(f.fd, buffer + done, count - done, off_t(position) + off_t(done))
                if w <= 0 { break }
                done += w
            }
            // A full or broken disk: go on playing, just without keeping a copy.
            if done < count { dropFile() }
        }
        if memoryCopy != nil, position + Int64(count) <= Int64(memoryCopy!.count) {
            let start = Int(position)
            memoryCopy!.withUnsafeMutableBufferPointer { dst in
                (dst.baseAddress! + start).update(from: buffer, count: count)
            }
        }
        ranges.insert(position, position + Int64(count))
        position += Int64(count)
        finishIfComplete()
    }

    /// Commits the copies once every byte of `[0, size)` has been seen.
    private func finishIfComplete() {
        guard !finished, size > 0, ranges.covers(0, size) else { return }
        finished = true
        if let m = memoryCopy, let memory = sinks.memory { memory.insert(Data(m), for: url) }
        memoryCopy = nil
        if let f = file, let cache = sinks.cache {
            file = nil
            let final = cache.commit(fd: f.fd, temporary: f.path, url: url, directory: sinks.directory)
            Glibc.close(f.fd)
            if let final {
                cachedPath = final
                sinks.onCached?(final)
            }
        }
    }

    private func dropFile() {
        guard let f = file else { return }
        file = nil
        Glibc.close(f.fd)
        unlink(f.path)
    }

    /// The Content-Type the server answered with, from the http protocol's exported option.
    private static func mimeType(_ pb: UnsafeMutablePointer<AVIOContext>) -> String? {
        var out: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(UnsafeMutableRawPointer(pb), "mime_type", AV_OPT_SEARCH_CHILDREN, &out) >= 0, let out else {
            return nil
        }
        defer { av_free(out) }
        return String(cString: out)
    }
}

/// Sorted, merged half-open byte ranges `[start, end)`.
struct ByteRanges {
    private(set) var spans: [(start: Int64, end: Int64)] = []

    mutating func insert(_ start: Int64, _ end: Int64) {
        guard end > start else { return }
        var s = start, e = end
        var kept: [(start: Int64, end: Int64)] = []
        for r in spans {
            if r.end < s || r.start > e { kept.append(r) } else { s = min(s, r.start); e = max(e, r.end) }
        }
        kept.append((s, e))
        spans = kept.sorted { $0.start < $1.start }
    }

    /// Whether `[start, end)` is covered entirely.
    func covers(_ start: Int64, _ end: Int64) -> Bool {
        if end <= start { return true }
        return spans.contains { $0.start <= start && $0.end >= end }
    }
}
