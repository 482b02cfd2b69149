import Glibc
import MediaCore
import Synchronization
import ThumbnailCache
import Web

/// One gallery thread's own decode worker: every thumbnail that thread makes from a file,
/// and every cached thumbnail it reads back, is decoded in that confined process.
///
/// It is a photos worker, quick to start, so a gallery's first screen does not wait for
/// fonts; the first SVG, AVIF, HEIC or JPEG XL of a folder (known from its first bytes)
/// starts a drawings worker beside it for those.
///
/// A folder of downloaded files is parsed as soon as the gallery shows it, without the user
/// opening any: a crafted one that breaks a parser takes only the worker, that one cell
/// fails with one line, and the next file gets a fresh worker. The worker is started on
/// the first thumbnail and reused; with the sandbox off, or (auto) when no worker can be
/// had, thumbnails are made in this process as before.
final class ThumbnailSandbox: @unchecked Sendable {
    // @unchecked: `workers` and `refusal` are used only by the one thumbnail thread that
    // owns this; `pids` is locked and `decoded` atomic, read by whoever asks.
    private let mode: SandboxMode
    private let timeout: Double
    private let testing: Bool
    /// The worker program; nil when none is installed.
    private let program: String?
    private var workers: [WorkerKind: DecodeWorker] = [:]
    /// The kinds whose worker was borrowed from the stills' pool, to be given back to it.
    private var borrowed: Set<WorkerKind> = []
    /// Why no worker serves, once that is known: nil while one may still be started.
    private var refusal: Refusal?
    /// The running workers' process ids.
    let pids = Locked<[WorkerKind: Int32]>([:])
    /// Thumbnails (made or read from the cache) whose pixels came from a worker.
    let decoded = Atomic<Int>(0)

    /// What became of one file.
    enum Made {
        /// Its thumbnail (and a video's length).
        case picture(ThumbnailMaker.Made)
        /// It holds no picture (sound without cover art).
        case noPicture
        /// It could not be read or decoded, or it crashed the worker: the one line, worth
        /// remembering for the file so that the next visit to its folder does not try again.
        case broken(String)
        /// The worker was stopped on it (killed, out of time or memory): the one line,
        /// for this cell only, since another try may well succeed.
        case stopped(String)
    }

    /// Why thumbnails are not sent to a worker.
    private enum Refusal: Error {
        /// The sandbox is off, or (auto) no worker can be had: they are made in this process.
        case inProcess
        /// Strict, and no full sandbox: every thumbnail fails with this line (after the file's name).
        case refused(String)
    }

    /// A sandbox for one thread in `mode`; a picture may take `timeout` seconds before its
    /// worker is killed; `testing` workers take the tests' probes; `program` is the worker
    /// program (nil: none is installed).
    init(mode: SandboxMode, timeout: Double = 10, testing: Bool = false, program: String? = DecodeWorkers.programPath) {
        self.mode = mode
        self.program = program
        self.timeout = timeout
        self.testing = testing
    }

    /// The thumbnail of the file at `path`, made in the worker (or here, when the mode says so).
    func thumbnail(path: String, size: Int, maxPixels: Int) -> Made {
        let name = SourceOptions.displayName(path)
        // The viewer opens the file (non-blocking, regular files only) and reads its first
        // bytes to pick the worker; the worker reads it through the descriptor and can open
        // nothing itself.
        let file: (fd: Int32, size: Int)?
        do { file = mode == .off ? nil : try ThumbnailMaker.open(path) } catch { return .broken(error.message) }
        defer { if let file { close(file.fd) } }
        let kind = file.map { WorkerKind.forStill(WholeFile.read($0.fd, size: min($0.size, PictureFormat.headSize)), name: name) }
        switch ready(kind ?? .photos) {
        case .failure(.inProcess):
            do {
                if let file {
                    return .picture(try ThumbnailMaker.thumbnail(fd: file.fd, fileSize: file.size, name: name, size: size,
                                                                 maxPixels: maxPixels))
                }
                return .picture(try ThumbnailMaker.thumbnail(path: path, size: size, maxPixels: maxPixels))
            } catch {
                if case .broken(let why) = error { return .broken(why) }
                return .noPicture
            }
        case .failure(.refused(let why)):
            return .broken("\(name): \(why)")
        case .success(let w):
            guard let file else { return .broken("\(name): cannot be read") }
            let request = ThumbnailRequest(source: .file, size: size, maxPixels: maxPixels, name: name)
            return exchange(request, fd: file.fd, worker: w)
        }
    }

    /// The cached thumbnail `png` decoded and fitted to `size` in the worker (or here, when
    /// the mode says so); nil when it cannot be, and the thumbnail is then made anew.
    func cached(png: [UInt8], name: String, size: Int) -> StillDecoder.RGBA? {
        switch ready(.photos) {
        case .failure(.inProcess):
            return ThumbnailStore.decodePNG(png, size: size)
        case .failure(.refused):
            return nil
        case .success(let w):
            guard let fd = png.withUnsafeBytes({ SealedBytes.make([$0], name: "mediaview-cached") }) else { return nil }
            defer { close(fd) }
            let request = ThumbnailRequest(source: .cachedPNG, size: size, maxPixels: 4096 * 4096, name: name)
            guard case .picture(let p) = exchange(request, fd: fd, worker: w) else { return nil }
            return p.picture
        }
    }

    /// Ends the workers, if any run (the gallery closed); one borrowed from the stills'
    /// pool goes back to it, warm, for the next picture shown.
    func stop() {
        for kind in Array(workers.keys) {
            if borrowed.contains(kind), let w = workers[kind] {
                forget(kind)
                DecodeWorkers.shared.give(back: w)
            } else {
                stop(kind)
            }
        }
    }

    private func stop(_ kind: WorkerKind) {
        workers.removeValue(forKey: kind)?.stop()
        forget(kind)
    }

    /// Lets go of the worker of `kind` (stopped and reaped already, or given back).
    private func forget(_ kind: WorkerKind) {
        workers[kind] = nil
        borrowed.remove(kind)
        pids.withLock { $0[kind] = nil }
    }

    /// A warm worker the stills' pool holds idle, when this gallery's workers are of the
    /// same making: the picture on screen was decoded by one a moment ago, and a gallery
    /// opened over it then starts making thumbnails at once instead of after a worker's
    /// start (0.1–0.4 s). It keeps its priority: it cannot be raised back once lowered.
    private func borrow(_ kind: WorkerKind) -> DecodeWorker? {
        guard testing == DecodeWorkers.shared.testing, program == DecodeWorkers.programPath,
              let w = DecodeWorkers.shared.takeIdle(kind) else { return nil }
        borrowed.insert(kind)
        return w
    }

    /// The worker of `kind` to use, started if none runs, or why none is used.
    private func ready(_ kind: WorkerKind) -> Result<DecodeWorker, Refusal> {
        if mode == .off { return .failure(.inProcess) }
        if let worker = workers[kind] { return .success(worker) }
        if let refusal { return .failure(refusal) }
        guard let path = program else {
            return refuse("no sandboxed decoder is installed (--sandbox=strict)",
                          else: "the sandboxed decoder (mediaview-worker) is not installed; thumbnails are made in this process")
        }
        // Decoding at the priority of the gallery thread asking (nice 10) once ready: the
        // decoding moved there, and the shown picture, its sound and the desktop come first.
        errno = 0
        let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let had = borrow(kind).map { Result<DecodeWorker, DecodeFailure>.success($0) }
        switch had ?? WorkerSpawner.shared.spawn(path: path, kind: kind, testing: testing, nice: errno == 0 ? nice : nil) {
        case .failure(let f):
            return refuse("\(f.message) (--sandbox=strict)", else: "\(f.message); thumbnails are made in this process")
        case .success(let w):
            let missing = DecodeWorkers.missingSteps(w.steps)
            if !missing.isEmpty {
                if mode == .strict {
                    w.stop()
                    return refuse("the sandbox lacks \(missing.joined(separator: ", ")) here (--sandbox=strict)", else: "")
                }
                DecodeWorkers.shared.sayOnce("the picture decoder's sandbox lacks \(missing.joined(separator: ", ")) on this system")
            }
            workers[kind] = w
            pids.withLock { $0[kind] = w.pid }
            return .success(w)
        }
    }

    /// Remembers that no worker serves: strict refuses with `strict`, auto says `auto` once
    /// and makes thumbnails here.
    private func refuse(_ strict: String, else auto: String) -> Result<DecodeWorker, Refusal> {
        if mode == .strict {
            refusal = .refused(strict)
            return .failure(.refused(strict))
        }
        DecodeWorkers.shared.sayOnce(auto)
        refusal = .inProcess
        return .failure(.inProcess)
    }

    /// Sends `request` with `fd` and reads the answer; a worker that stopped is let go (the
    /// next thumbnail starts another) and this file fails with how it stopped.
    private func exchange(_ request: ThumbnailRequest, fd: Int32, worker w: DecodeWorker)
        -> Made {
        switch w.exchange(request.message(fd: fd), timeout: timeout) {
        case .stopped(let why):
            forget(w.kind)
            return .stopped("\(request.name): the decoder stopped: \(why)")
        case .crashed(let why):
            // The file will crash the same decoder again: it is remembered as one with no
            // thumbnail, and each later visit to its folder costs no worker.
            forget(w.kind)
            return .broken("\(request.name): the decoder stopped: \(why)")
        case .cancelled:
            // Not asked for here (nothing cancels a thumbnail's exchange); said, not trapped.
            stop(w.kind)
            return .stopped("\(request.name): the decoder stopped: cancelled")
        case .answer(let m):
            defer { if m.fd >= 0 { close(m.fd) } }
            switch m.kind {
            case .picture:
                guard let p = request.picture(in: m) else { return .broken("\(request.name): the decoder's answer was malformed") }
                decoded.add(1, ordering: .relaxed)
                return .picture(p)
            case .nothing:
                return .noPicture
            default:
                if m.numbers.first == Int64(ENOMEM) {
                    // Its heap may be in pieces: a fresh one takes the next file.
                    stop(w.kind)
                    return .stopped("\(request.name): the decoder stopped: out of memory")
                }
                return .broken(m.text.isEmpty ? "\(request.name): the decoder failed" : m.text)
            }
        }
    }
}
