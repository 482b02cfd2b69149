/// Workers of their own for sessions that keep state between requests: a video's track
/// previews (its demuxer), a zoomed photo's tiles (its bytes). Such a worker is not the
/// pool's: it is started for the session and stopped with it.
extension DecodeWorkers {
    /// Why a session gets no worker of its own.
    enum Refusal: Error {
        /// The sandbox is off, or (auto) no worker can be had: the work is done in this process.
        case inProcess
        /// Strict, and no fully confined worker: the one line saying why.
        case refused(String)
    }

    /// A photos worker for one session, confined as `mode` requires, decoding at `nice`
    /// once ready (nil: the program's priority). Auto says once which confinement steps
    /// this system lacks.
    static func own(_ mode: SandboxMode, nice: Int32? = nil) -> Result<DecodeWorker, Refusal> {
        guard mode != .off else { return .failure(.inProcess) }
        guard let path = programPath else {
            return mode == .strict ? .failure(.refused("no sandboxed decoder is installed (--sandbox=strict)")) : .failure(.inProcess)
        }
        switch WorkerSpawner.shared.spawn(path: path, kind: .photos, testing: shared.testing, nice: nice) {
        case .failure(let f):
            return mode == .strict ? .failure(.refused("\(f.message) (--sandbox=strict)")) : .failure(.inProcess)
        case .success(let w):
            let missing = missingSteps(w.steps)
            if !missing.isEmpty {
                if mode == .strict {
                    w.stop()
                    return .failure(.refused("the sandbox lacks \(missing.joined(separator: ", ")) here (--sandbox=strict)"))
                }
                shared.sayOnce("the picture decoder's sandbox lacks \(missing.joined(separator: ", ")) on this system")
            }
            return .success(w)
        }
    }
}
