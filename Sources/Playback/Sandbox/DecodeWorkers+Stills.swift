import CSandbox
import Glibc
import MediaCore
import Synchronization

/// Stills decoded in a worker, and the tests' probes.
extension DecodeWorkers {
    /// What asking the workers for a still came to.
    enum StillOutcome {
        /// The picture, ready to show.
        case picture(WorkerPicture)
        /// No worker can be had and the mode allows decoding here: the caller decodes in-process.
        case inProcess
        /// The file is an animation: the caller asks for it with `animation`.
        case moving
    }

    /// Decodes `bytes` (a whole still named `name`, or with `soFar` the start of a JPEG
    /// still downloading) in a worker. Throws the one line for the user when the picture
    /// cannot be shown (bad data, a worker that stopped, or strict mode without a full
    /// sandbox). `cancelled` is asked while the worker decodes: when it says yes, the worker
    /// is ended and the decode given up. With `glance`, a JPEG's first look is asked of the
    /// same worker first and handed to it, before the full decode starts.
    /// A JPEG goes to a JPEG worker first; what it hands back goes to a photos worker.
    func still(_ bytes: [UInt8], name: String, options: PlayerOptions, soFar: Bool = false,
               cancelled: (() -> Bool)? = nil,
               glance: ((WorkerPicture) -> Void)? = nil) throws(AVError) -> StillOutcome {
        let kind = WorkerKind.forDecode(Array(bytes.prefix(PictureFormat.headSize)), name: name)
        do {
            return try still(bytes, name: name, kind: kind, options: options, soFar: soFar, cancelled: cancelled, glance: glance)
        } catch where kind == .jpegs && error.code == StillWork.needsFFmpegCode {
            return try still(bytes, name: name, kind: .photos, options: options, soFar: soFar, cancelled: cancelled, glance: nil)
        }
    }

    private func still(_ bytes: [UInt8], name: String, kind: WorkerKind, options: PlayerOptions, soFar: Bool,
                       cancelled: (() -> Bool)?, glance: ((WorkerPicture) -> Void)?) throws(AVError) -> StillOutcome {
        guard let worker = try confinedWorker(kind, name: name, options: options) else { return .inProcess }
        guard let file = requestFile(bytes, options: options) else {
            give(back: worker)
            throw AVError(message: "\(name): out of memory")
        }
        let (fd, icc) = file
        defer { close(fd) }
        let t = options.targetSize ?? (0, 0)
        let request = WorkerMessage(kind: soFar ? .decodeSoFar : .decode, numbers: [Int64(icc), Int64(t.width), Int64(t.height),
                                                             Int64(options.source.maxPixels), Int64(bytes.count)],
                                    text: name, fd: fd)
        if let glance, !soFar, options.firstLook != .none, bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            try firstLook(request, from: worker, name: name, allowed: options.firstLook, cancelled: cancelled, to: glance)
        }
        return try finish(worker.exchange(request, timeout: timeout, cancelled: cancelled), worker: worker, name: name)
    }

    /// A worker of `kind` confined as `options.sandbox` asks, or nil when this process is
    /// to decode instead (no worker, and the mode allows it); throws the one line when the
    /// mode refuses both. Says once which confinement steps this system lacks.
    func confinedWorker(_ kind: WorkerKind, name: String, options: PlayerOptions) throws(AVError) -> DecodeWorker? {
        let worker: DecodeWorker
        switch take(kind) {
        case nil:
            if options.sandbox == .strict { throw AVError(message: "\(name): no sandboxed decoder is installed (--sandbox=strict)") }
            sayOnce("the sandboxed decoder (mediaview-worker) is not installed; pictures are decoded in this process")
            return nil
        case .failure(let f)?:
            if options.sandbox == .strict { throw AVError(message: "\(name): \(f.message)") }
            sayOnce("\(f.message); pictures are decoded in this process")
            return nil
        case .success(let w)?:
            worker = w
        }
        let missing = DecodeWorkers.missingSteps(worker.steps)
        if !missing.isEmpty {
            if options.sandbox == .strict {
                give(back: worker)
                throw AVError(message: "\(name): the sandbox lacks \(missing.joined(separator: ", ")) here (--sandbox=strict)")
            }
            sayOnce("the picture decoder's sandbox lacks \(missing.joined(separator: ", ")) on this system")
        }
        return worker
    }

    /// The sealed memfd a decode request carries: the display's ICC profile, then the
    /// file's bytes; with the profile's length. Nil without memory.
    func requestFile(_ bytes: [UInt8], options: PlayerOptions) -> (fd: Int32, iccCount: Int)? {
        var icc = options.displayProfile ?? []
        // A damaged display profile is warned about here, once, and the worker is sent none.
        if !icc.isEmpty, ColourProfile(icc: icc)?.isRGB != true {
            DisplayProfileWarning.once()
            icc = []
        }
        let fd = icc.withUnsafeBytes { i in bytes.withUnsafeBytes { b in SealedBytes.make([i, b], name: "mediaview-file") } }
        return fd.map { ($0, icc.count) }
    }

    /// The worker's answer, or the one line for an exchange that ended without one. A worker
    /// that stopped gets a successor at once; a cancelled one does not, since its item is
    /// going away, often because the program is.
    func answer(_ outcome: DecodeWorker.Outcome, worker: DecodeWorker, name: String) throws(AVError) -> WorkerMessage {
        switch outcome {
        case .answer(let m):
            return m
        case .stopped(let why), .crashed(let why):
            replace(worker.kind)
            throw AVError(message: "\(name): the decoder stopped: \(why)")
        case .cancelled:
            throw AVError(message: "\(name): closed before it was decoded")
        }
    }

    func finish(_ outcome: DecodeWorker.Outcome, worker: DecodeWorker, name: String) throws(AVError) -> StillOutcome {
        let m = try answer(outcome, worker: worker, name: name)
        switch m.kind {
        case .picture:
            give(back: worker)
            guard let picture = WorkerPicture(m) else { throw AVError(message: "\(name): the decoder's answer was malformed") }
            answered.add(1, ordering: .relaxed)
            return .picture(picture)
        case .moving:
            // An AVIF or JPEG XL with frames: played frame by frame by a worker of its own.
            if m.fd >= 0 { close(m.fd) }
            give(back: worker)
            return .moving
        default:
            if m.fd >= 0 { close(m.fd) }
            if m.numbers.first == Int64(ENOMEM) {
                // Its heap may be in pieces: a fresh one takes the next picture.
                worker.stop()
                replace(worker.kind)
                throw AVError(message: "\(name): the decoder stopped: out of memory")
            }
            give(back: worker)
            if m.numbers.first == Int64(ENOSYS), worker.kind == .jpegs {
                // A JPEG worker's hand-back: `still` asks a photos worker.
                throw AVError(code: StillWork.needsFFmpegCode, message: m.text)
            }
            throw AVError(message: m.text.isEmpty ? "\(name): the decoder failed" : m.text)
        }
    }

    /// The steps missing from `steps`, named for the user.
    static func missingSteps(_ steps: Int32) -> [String] {
        let names: [(Int32, String)] = [
            (Int32(SBX_PDEATHSIG), "death with the viewer"), (Int32(SBX_NO_NEW_PRIVS), "no-new-privileges"),
            (Int32(SBX_RLIMITS), "resource limits"), (Int32(SBX_USERNS), "a network namespace (no user namespaces)"),
            (Int32(SBX_LANDLOCK), "Landlock (no file access)"), (Int32(SBX_SECCOMP), "the seccomp syscall filter"),
        ]
        return names.filter { steps & $0.0 == 0 }.map(\.1)
    }

    /// What a probe came to: the worker's line (how it was refused), or how the worker stopped.
    public enum ProbeOutcome: Equatable, Sendable {
        case answered(String)
        case stopped(String)
    }

    /// Asks a worker to try `what` (see the worker's `Probe`), waiting `timeout` seconds;
    /// tests only: workers honour probes only when started by a `testing` pool.
    public func probe(_ what: String, kind: WorkerKind = .photos, timeout: Double? = nil) -> ProbeOutcome {
        guard case .success(let worker)? = take(kind) else { return .stopped("no worker") }
        switch worker.exchange(WorkerMessage(kind: .probe, text: what), timeout: timeout ?? self.timeout) {
        case .answer(let m):
            give(back: worker)
            return .answered(m.text)
        case .stopped(let why), .crashed(let why):
            replace(worker.kind)
            return .stopped(why)
        case .cancelled:
            return .stopped("cancelled")
        }
    }

    /// The confinement steps of a worker (started if none waits), named as `missingSteps` names them.
    public func confinement(_ kind: WorkerKind = .photos) -> (applied: Int32, missing: [String])? {
        guard case .success(let worker)? = take(kind) else { return nil }
        give(back: worker)
        return (worker.steps, DecodeWorkers.missingSteps(worker.steps))
    }
}
