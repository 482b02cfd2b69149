import Glibc
import MediaCore

/// PNGs and TIFFs too large to hold whole, reduced in a worker that reads the file itself.
extension DecodeWorkers {
    /// Seconds a worker may take to read a large picture once from top to bottom: a 300 MB
    /// scan is a few seconds of inflating on one core, and more on a busy machine.
    static let largeTimeout = 120.0

    /// Decodes the PNG or TIFF behind `fd` (its first bytes `head`; the fd stays the
    /// caller's) in a worker, reduced to cover `options.targetSize` within the pixel budget.
    /// The worker is handed the descriptor and reads it with pread: the file is never
    /// copied whole, here or there. Throws the one line for the user.
    func large(fd: Int32, head: [UInt8], name: String, options: PlayerOptions,
               cancelled: (() -> Bool)? = nil) throws(AVError) -> StillOutcome {
        guard let worker = try confinedWorker(WorkerKind.forStill(head, name: name), name: name, options: options) else {
            return .inProcess
        }
        let t = options.targetSize ?? (0, 0)
        // The same pass writes the zoom's tiles: handed over first, the worker keeps the store
        // for the decode that follows. Without one (no directory takes it) the zoom makes its own.
        let store = (try? PyramidStore.create(in: options.scratchDirectory)) ?? -1
        if store >= 0, case .answer(let m) = worker.exchange(WorkerMessage(kind: .regionsStore, fd: store), timeout: timeout),
           m.fd >= 0 {
            close(m.fd)
        }
        let request = WorkerMessage(kind: .decodeLarge, numbers: [Int64(t.width), Int64(t.height), Int64(options.source.maxPixels)],
                                    text: name, fd: fd)
        let answered = worker.exchange(request, timeout: max(timeout, Self.largeTimeout), cancelled: cancelled)
        // The number after the picture's own: whether every tile reached the store.
        var stored = false
        if case .answer(let m) = answered, m.kind == .picture, m.numbers.count > 11 { stored = m.numbers[11] == 1 }
        let outcome = try finish(answered, worker: worker, name: name)
        if case .picture(let p) = outcome, stored, store >= 0 {
            PyramidShelf.shared.put(file: fd, store: store, layout: LargeStill.layout(width: p.info.width, height: p.info.height))
        } else if store >= 0 {
            close(store)
        }
        return outcome
    }
}
