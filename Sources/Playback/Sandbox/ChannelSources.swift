import CFFmpeg
import Glibc
import MediaCore
import Web

/// What the viewer reads for one worker's container: the media itself (source 0) and, for
/// a web playlist, each part the worker opens (`ChannelOpener`), by the number given it.
///
/// Only web addresses are opened, through the viewer's own transport and caches, each
/// blocking step bounded by the item's interrupt: a playlist that names a local file, or
/// any other kind of address, is refused here whatever the worker asks. Used by the demux
/// thread, inside the worker's requests.
final class ChannelSources {
    /// The media the request is about.
    let main: ChannelReads.Source
    private let options: SourceOptions
    /// The parts open now, by number.
    private var parts: [Int64: CustomIO] = [:]
    private var next: Int64 = 1
    /// Parts open at once: a playlist holds its media playlists and a segment per stream.
    static let mostOpen = 32
    /// The longest address taken: longer than any a CDN signs.
    static let longestAddress = 64 << 10

    /// `options` are the item's; its caches are left out for the parts (see `uncached`).
    init(main: ChannelReads.Source, options: SourceOptions) {
        self.main = main
        self.options = ChannelSources.uncached(options)
    }

    /// `options` without the memory and disk caches: a live playlist is loaded again and
    /// again and must come from the server each time, and a stream's segments would fill
    /// the cache with parts nobody plays twice.
    static func uncached(_ options: SourceOptions) -> SourceOptions {
        var o = options
        o.cache = nil
        o.memoryCache = nil
        o.onCached = nil
        return o
    }

    deinit { for part in parts.values { part.close() } }

    /// The answer to the worker's `readAt`, `openURL` or `closeURL` message `m`.
    func answer(_ m: WorkerMessage) -> WorkerMessage {
        switch m.kind {
        case .openURL:
            return open(m)
        case .closeURL:
            if let id = m.numbers.first, let part = parts.removeValue(forKey: id) { part.close() }
            return WorkerMessage(kind: .urlOpened, numbers: [0])
        default:
            let id = m.numbers.count >= 3 ? m.numbers[2] : 0
            if id == 0 { return main.answer(m) }
            guard let part = parts[id] else {
                return WorkerMessage(kind: .bytes, numbers: [Int64(cff_averror(EBADF))], text: "the decoder read a part it did not open")
            }
            return ChannelReads.answer(m, from: part, interrupt: main.interrupt)
        }
    }

    /// Opens the web address the request `m` carries, or says why not.
    private func open(_ m: WorkerMessage) -> WorkerMessage {
        guard let count = m.numbers.first, (1...Int64(Self.longestAddress)).contains(count), m.fd >= 0,
              let p = SealedBytes.map(m.fd, count: Int(count)) else { return refused(EINVAL, "the address was malformed") }
        let url = String(decoding: UnsafeRawBufferPointer(start: p, count: Int(count)), as: UTF8.self)
        munmap(p, Int(count))
        // A web playlist reaches the web only: never a local file, a device or another protocol.
        guard SourceOptions.isNetwork(url) else { return refused(EACCES, "a web playlist may name only web addresses") }
        guard parts.count < Self.mostOpen else { return refused(EMFILE, "the playlist opened too many parts at once") }
        main.interrupt.arm()
        defer { main.interrupt.disarm() }
        let route: SourceRoute.Opened
        do throws(AVError) {
            route = try SourceRoute.open(url: url, options: options, interrupt: main.interrupt.callback)
        } catch {
            return WorkerMessage(kind: .urlOpened, numbers: [Int64(error.code < 0 ? error.code : cff_averror(EIO))], text: error.message)
        }
        // Without the caches the route is always the server's.
        guard let io = route.io else { return refused(EIO, "cannot read \(SourceOptions.displayName(url))") }
        let id = next
        next += 1
        parts[id] = io
        return WorkerMessage(kind: .urlOpened, numbers: [id, io.seek(to: 0, whence: Int32(AVSEEK_SIZE))])
    }

    private func refused(_ code: Int32, _ why: String) -> WorkerMessage {
        WorkerMessage(kind: .urlOpened, numbers: [Int64(cff_averror(code))], text: why)
    }
}
