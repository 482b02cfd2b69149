import Glibc
import MediaCore
import Playback

/// The zoomed picture a worker serves tiles of, kept until the next open or the worker's
/// end: a JPEG read whole through the descriptor handed over with `regionsOpen`, or a PNG's
/// or TIFF's pyramid, built from the file into the store handed over with `regionsStore`
/// (which a large picture's fitted decode may take instead, to write the same pyramid).
final class RegionServing {
    private var jpeg: JPEGRegions?
    private var pyramid: PyramidRegions?
    /// Where the next PNG or TIFF opened writes its tiles; it becomes the pyramid's.
    private var store: Int32 = -1

    deinit { if store >= 0 { close(store) } }

    /// Keeps (a copy of) `m`'s descriptor as the next pyramid's store.
    func keepStore(_ m: WorkerMessage) -> WorkerMessage {
        if store >= 0 { close(store) }
        store = m.fd >= 0 ? fcntl(m.fd, F_DUPFD_CLOEXEC, 0) : -1
        return WorkerMessage(kind: store >= 0 ? .nothing : .failure, text: store >= 0 ? "" : "zoom detail: no store")
    }

    /// The store handed over last, for the fitted picture's pass to write the tiles into
    /// (the caller closes it); -1 when none was.
    func takeStore() -> Int32 {
        defer { store = -1 }
        return store
    }

    /// Reads the picture behind `m`'s fd (which stays the caller's) and answers its stored
    /// size, or why it cannot be, in one line.
    func open(_ m: WorkerMessage) -> WorkerMessage {
        (jpeg, pyramid) = (nil, nil)
        let name = m.text.isEmpty ? "picture" : m.text
        guard m.fd >= 0, let size = SealedBytes.size(m.fd) else {
            return WorkerMessage(kind: .failure, text: "\(name): the request was malformed")
        }
        do {
            let opened: any RegionSource
            if store >= 0 {
                let s = store
                store = -1
                let built = try PyramidRegions.build(file: m.fd, store: s, name: name)
                pyramid = built
                opened = built
            } else {
                let read = try JPEGRegions(fd: m.fd, size: size, name: name)
                jpeg = read
                opened = read
            }
            return WorkerMessage(kind: .regionsSize, numbers: [Int64(opened.width), Int64(opened.height)])
        } catch {
            return WorkerMessage(kind: .failure, text: error.message)
        }
    }

    /// The piece `m` asks for, decoded and colour managed to the display's profile in its
    /// fd (none: sRGB).
    func band(_ m: WorkerMessage) -> WorkerMessage {
        if let pyramid { return RegionRequest.answer(m, from: pyramid) }
        guard let jpeg else { return WorkerMessage(kind: .failure, text: "zoom detail: no picture is open") }
        return RegionRequest.answer(m, from: jpeg)
    }
}
