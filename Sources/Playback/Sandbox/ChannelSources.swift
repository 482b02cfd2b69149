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
    /// The parts open now, by number, with the file descriptor of a part read from the disk
    /// cache (closed with it).
    private var parts: [Int64: (io: CustomIO, fd: Int32)] = [:]
    private var next: Int64 = 1
    /// Parts open at once: a playlist holds its media playlists and a segment per stream.
    static let mostOpen = 32
    /// The longest address taken: longer than any a CDN signs.
    static let longestAddress = 64 << 10

    init(main: ChannelReads.Source, options: SourceOptions) {
        self.main = main
        self.options = options
    }

    deinit { for part in parts.values { close(part) } }

    /// The answer to the worker's `readAt`, `openURL` or `closeURL` message `m`.
    func answer(_ m: WorkerMessage) -> WorkerMessage {
        switch m.kind {
        case .openURL:
            return open(m)
        case .closeURL:
            if let id = m.numbers.first, let part = parts.removeValue(forKey: id) { close(part) }
            return WorkerMessage(kind: .urlOpened, numbers: [0])
        default:
            let id = m.numbers.count >= 3 ? m.numbers[2] : 0
            if id == 0 { return main.answer(m) }
            guard let part = parts[id] else {
                return WorkerMessage(kind: .bytes, numbers: [Int64(cff_averror(EBADF))], text: "the decoder read a part it did not open")
            }
            return ChannelReads.answer(m, from: part.io, interrupt: main.interrupt)
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
        var part: (io: CustomIO, fd: Int32)?
        if let io = route.io {
            part = (io, -1)
        } else if route.url.hasPrefix("file:") {
            // A whole copy in the disk cache.
            let fd = FileName.withCString(String(route.url.dropFirst(5))) { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
            if fd >= 0, let size = SealedBytes.size(fd), let io = ReaderIO.descriptor(fd, size: Int64(size)) {
                part = (io, fd)
            } else if fd >= 0 {
                Glibc.close(fd)
            }
        }
        guard let part else { return refused(EIO, "cannot read \(SourceOptions.displayName(url))") }
        let id = next
        next += 1
        parts[id] = part
        return WorkerMessage(kind: .urlOpened, numbers: [id, part.io.seek(to: 0, whence: Int32(AVSEEK_SIZE))])
    }

    private func refused(_ code: Int32, _ why: String) -> WorkerMessage {
        WorkerMessage(kind: .urlOpened, numbers: [Int64(cff_averror(code))], text: why)
    }

    private func close(_ part: (io: CustomIO, fd: Int32)) {
        part.io.close()
        if part.fd >= 0 { Glibc.close(part.fd) }
    }
}
