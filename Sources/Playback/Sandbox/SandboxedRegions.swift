import Glibc
import MediaCore
import Web

/// The detail tiles of a zoomed JPEG, PNG or TIFF decoded in a sandboxed worker of their own.
///
/// A photo over the pixel budget is shown fitted from the worker's reduced decode; zoomed
/// in, a JPEG's pieces are decoded by libjpeg-turbo and colour managed by lcms2 from the
/// file's own ICC profile, and a PNG's or TIFF's are read from the pyramid the worker built
/// from the file: the same crafted bytes, so the same confinement. The worker reads the
/// file through the descriptor handed over once, keeps it between pieces, and is stopped
/// with this source. A worker that stops ends the tiles with one line; the view keeps the
/// fitted picture blown up.
public final class SandboxedRegions: RegionSource, @unchecked Sendable {
    // @unchecked: the worker is used under `lock` only, by one decode at a time.
    public let width: Int
    public let height: Int
    private let lock = Condition()
    private var worker: DecodeWorker?
    private let name: String
    /// Seconds one piece may take: a piece at the bottom of a 200 MP file entropy-decodes
    /// every row above it first.
    static let timeout = 30.0

    private init(worker: DecodeWorker, width: Int, height: Int, name: String) {
        self.worker = worker
        self.width = width
        self.height = height
        self.name = name
    }

    deinit { worker?.stop() }

    /// The worker's process id, while it runs.
    var pid: Int32? { lock.withLock { worker?.pid } }

    /// The tiles of the local JPEG, PNG or TIFF at `path` (a path or a "file:" address):
    /// from a worker, or read here when `mode` is off or (auto) no worker can be had. A PNG's
    /// or TIFF's pyramid is written to a new unnamed file in `scratch` (nil, or where it
    /// cannot be: /var/tmp, /tmp) and read back from there.
    public static func open(path: String, mode: SandboxMode, scratch: String? = nil) throws(AVError) -> any RegionSource {
        let p = path.hasPrefix("file:") ? String(path.dropFirst(5)) : path
        let name = SourceOptions.displayName(p)
        let file = try ThumbnailMaker.open(p)
        defer { close(file.fd) }
        let pyramid = (try? RowReader.Format(fd: file.fd, name: name)) != nil
        // The pass that showed the picture fitted wrote its tiles: nothing to read again, and
        // nothing to parse (the store holds only the pixels that pass made).
        if pyramid, let shelved = PyramidShelf.shared.take(file: file.fd) {
            return PyramidRegions(reading: shelved.store, layout: shelved.layout, name: name)
        }
        let store = pyramid ? try PyramidStore.create(in: scratch) : -1
        let worker: DecodeWorker
        switch DecodeWorkers.own(mode) {
        case .success(let w): worker = w
        case .failure(.inProcess):
            return pyramid ? try PyramidRegions.build(file: file.fd, store: store, name: name) : try JPEGRegions(path: p)
        case .failure(.refused(let why)):
            if store >= 0 { close(store) }
            throw AVError(message: "\(name): \(why)")
        }
        if pyramid {
            // The worker writes the tiles through its own copy of the descriptor.
            let handed = worker.exchange(WorkerMessage(kind: .regionsStore, fd: store), timeout: timeout)
            close(store)
            guard case .answer(let m) = handed, m.kind == .nothing else {
                worker.stop()
                throw AVError(message: "\(name): the decoder stopped")
            }
        }
        let opening = pyramid ? DecodeWorkers.largeTimeout : timeout
        switch worker.exchange(WorkerMessage(kind: .regionsOpen, text: name, fd: file.fd), timeout: opening) {
        case .answer(let m):
            if m.fd >= 0 { close(m.fd) }
            guard let size = RegionRequest.size(in: m) else {
                worker.stop()
                throw AVError(message: m.kind == .failure && !m.text.isEmpty ? m.text : "\(name): not a JPEG file that can be read")
            }
            return SandboxedRegions(worker: worker, width: size.width, height: size.height, name: name)
        case .stopped(let why), .crashed(let why):
            StandardError.write("mediaview: \(name): zoom detail: the decoder stopped: \(why)")
            throw AVError(message: "\(name): the decoder stopped: \(why)")
        case .cancelled:
            throw AVError(message: "\(name): the decoder stopped: cancelled")
        }
    }

    public func tiles(level: Int, rows: ClosedRange<Int>, columns: ClosedRange<Int>, side: Int,
                      displayProfile: [UInt8]?) throws(AVError) -> [[VideoFrame]] {
        let area = try TileGrid(size: size(level: level), rows: rows, columns: columns, side: side)
        let profile = displayProfile.flatMap { icc in icc.withUnsafeBytes { SealedBytes.make([$0], name: "mediaview-icc") } } ?? -1
        defer { if profile >= 0 { close(profile) } }
        let outcome: DecodeWorker.Outcome? = lock.withLock {
            guard let w = worker else { return nil }
            let o = w.exchange(RegionRequest.band(level: level, area: area, profile: profile), timeout: Self.timeout)
            // A worker that stopped is gone for good: the zoomed view keeps its fitted picture.
            if case .answer = o {} else { worker = nil }
            return o
        }
        switch outcome {
        case nil:
            throw AVError(message: "\(name): the decoder stopped")
        case .answer(let m)?:
            defer { if m.fd >= 0 { close(m.fd) } }
            if m.kind == .failure { throw AVError(message: m.text.isEmpty ? "\(name): the piece could not be decoded" : m.text) }
            guard let tiles = RegionRequest.tiles(in: m, area: area) else {
                throw AVError(message: "\(name): the decoder's answer was malformed")
            }
            return tiles
        case .stopped(let why)?, .crashed(let why)?:
            // Said once: every later piece fails at once, quietly.
            StandardError.write("mediaview: \(name): zoom detail: the decoder stopped: \(why)")
            throw AVError(message: "\(name): the decoder stopped: \(why)")
        case .cancelled?:
            throw AVError(message: "\(name): the decoder stopped: cancelled")
        }
    }
}
