import CSandbox
import Glibc

/// The viewer's end of the zygote: the warm worker that forks the others.
///
/// Forked, a worker skips binding FFmpeg and the libraries it links (25-60 ms of a core
/// each), so a film's three workers cost one load instead of three. The viewer becomes a
/// subreaper for it: the worker's parent, the zygote's middle process, exits at once, and
/// the worker is re-parented to the viewer, which collects it and reads how it ended, as it
/// does for a worker it started itself. A process given up by anything else the program
/// started (a double-forking helper) is re-parented to it too, and stays a zombie unless
/// collected: the price of that choice, which `mediaview` itself never meets.
final class WorkerZygote {
    private let process: DecodeWorker

    private init(process: DecodeWorker) {
        self.process = process
    }

    /// Starts the zygote, warm first for a worker of kind `first`, and waits (at most 3 s)
    /// for it to be ready; nil when the viewer cannot be made a subreaper or the zygote does
    /// not start, and workers are then started as programs of their own.
    static func start(path: String, first: WorkerKind) -> WorkerZygote? {
        guard sbx_become_subreaper() == 0,
              case .success(let launched) = DecodeWorker.launchZygote(path: path, first: first),
              case .success(let ready) = launched.ready() else { return nil }
        return WorkerZygote(process: ready)
    }

    /// A worker of `kind`, forked and not yet ready (`DecodeWorker.ready` waits for that);
    /// `testing`: it takes the tests' requests. Nil when the zygote is gone.
    func fork(_ kind: WorkerKind, testing: Bool) -> Result<DecodeWorker, DecodeFailure>? {
        guard process.isAlive else { return nil }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return .failure(DecodeFailure("cannot make the decoder's channel: \(String(cString: strerror(errno)))"))
        }
        let outcome = process.exchange(WorkerMessage(kind: .fork, numbers: [testing ? 1 : 0], text: kind.rawValue, fd: pair[1]), timeout: 3)
        close(pair[1])
        switch outcome {
        case .answer(let m) where m.kind == .forked && m.numbers[0] > 0:
            return .success(DecodeWorker.forked(pid: pid_t(m.numbers[0]), socket: pair[0], kind: kind))
        case .answer(let m):
            close(pair[0])
            if m.fd >= 0 { close(m.fd) }
            return .failure(DecodeFailure(m.kind == .failure ? m.text : "the zygote said something else"))
        case .stopped, .crashed, .cancelled:
            close(pair[0])
            return nil
        }
    }

    /// Whether it still answers.
    var isAlive: Bool { process.isAlive }

    deinit { process.stop() }
}
