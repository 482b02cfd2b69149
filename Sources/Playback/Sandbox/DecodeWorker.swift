import CSandbox
import Glibc

/// One running `mediaview-worker` process and its end of the channel.
final class DecodeWorker {
    let pid: pid_t
    let socket: Int32
    /// The `SBX_*` confinement steps it applied.
    let steps: Int32
    /// What it was made ready for.
    let kind: WorkerKind
    /// Every step there is: what `--sandbox=strict` requires.
    static let allSteps = Int32(SBX_PDEATHSIG | SBX_NO_NEW_PRIVS | SBX_RLIMITS | SBX_USERNS | SBX_LANDLOCK | SBX_SECCOMP)

    /// What an exchange came to.
    enum Outcome {
        case answer(WorkerMessage)
        /// The worker is gone (and reaped) for a reason outside the input: it was killed,
        /// ran out of time, or exited. Another try may well succeed. The one line says how.
        case stopped(String)
        /// The worker died of its own signal while on this input: a parser crashed, or the
        /// sandbox killed it for a call the input led it to. The same bytes would do it
        /// again, so they are not worth another worker. The one line says how.
        case crashed(String)
        /// The caller stopped wanting the answer (the item was closed, the program quits):
        /// the worker was ended mid-decode rather than waited for.
        case cancelled
    }

    private init(pid: pid_t, socket: Int32, steps: Int32, kind: WorkerKind) {
        self.pid = pid
        self.socket = socket
        self.steps = steps
        self.kind = kind
    }

    /// Starts the program at `path`, not waiting for it: `ready` does, on the thread that
    /// needs the worker, so two workers started at once warm up at once.
    static func launch(path: String, kind: WorkerKind, testing: Bool) -> Result<DecodeWorker, DecodeFailure> {
        launch(path: path, arguments: [kind.rawValue], kind: kind, fonts: kind == .subtitles, testing: testing)
    }

    /// Starts the zygote at `path`: warmed first for a worker of kind `first` (named in its
    /// environment, not its command line, which `pgrep -f` reads for a worker's kind), then,
    /// once idle, as a photos worker, it forks the others (each told whether it takes the
    /// tests' requests). Its last argument is room for a forked worker to write its own
    /// kind's name over.
    static func launchZygote(path: String, first: WorkerKind = .photos) -> Result<DecodeWorker, DecodeFailure> {
        launch(path: path, arguments: ["zygote", String(repeating: " ", count: 12)], kind: .photos, fonts: true, testing: false,
               environment: ["\(WorkerKind.zygoteFirstVariable)=\(first.rawValue)"])
    }

    /// A worker the zygote forked, as its parent would have had it from `launch`.
    static func forked(pid: pid_t, socket: Int32, kind: WorkerKind) -> DecodeWorker {
        DecodeWorker(pid: pid, socket: socket, steps: 0, kind: kind)
    }

    private static func launch(path: String, arguments: [String], kind: WorkerKind, fonts: Bool,
                               testing: Bool, environment: [String] = []) -> Result<DecodeWorker, DecodeFailure> {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return .failure(DecodeFailure("cannot make the decoder's channel: \(String(cString: strerror(errno)))"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        // No Swift backtracer: on a crash it would start a helper program, which the sandbox
        // forbids, and the user would read "killed by the sandbox" instead of "crashed".
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
            + (testing ? [strdup("MEDIAVIEW_WORKER_TEST=1")] : []) + sanitizerOptions() + (fonts ? fontPlaces() : []) + environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(pair[1])
        guard rc == 0 else {
            close(pair[0])
            return .failure(DecodeFailure("cannot start the decoder \(path): \(String(cString: strerror(rc)))"))
        }
        return .success(DecodeWorker(pid: pid, socket: pair[0], steps: 0, kind: kind))
    }

    /// Where a user's own fonts are, for the worker that draws subtitles: fontconfig finds
    /// `~/.fonts` and `$XDG_DATA_HOME/fonts` through these, as the viewer would.
    private static func fontPlaces() -> [UnsafeMutablePointer<CChar>?] {
        WorkerKind.fontEnvironment.compactMap { name in
            getenv(name).map { strdup(name + "=" + String(cString: $0)) }
        }
    }

    /// Waits (at most 3 s) for the ready message of a worker just launched: the worker as
    /// it confined itself, or why it did not start (it is then stopped and reaped).
    func ready() -> Result<DecodeWorker, DecodeFailure> {
        switch wait(timeout: 3) {
        case .answer(let m) where m.kind == .ready:
            return .success(DecodeWorker(pid: pid, socket: socket, steps: Int32(truncatingIfNeeded: m.numbers[0]), kind: kind))
        case .answer:
            stop()
            return .failure(DecodeFailure("the decoder did not start: it said something else first"))
        case .stopped(let why), .crashed(let why):
            return .failure(DecodeFailure("the decoder did not start: \(why)"))
        case .cancelled:
            // Unreachable: the start is not cancellable; said plainly rather than trapped.
            return .failure(DecodeFailure("the decoder did not start: cancelled"))
        }
    }

    /// In a sanitizer test build, the viewer's sanitizer options for the worker (so its
    /// reports land beside the viewer's), without the leak check at exit: that check stops
    /// the process with ptrace, which the sandbox refuses, and the worker was killed for it.
    private static func sanitizerOptions() -> [UnsafeMutablePointer<CChar>?] {
        guard sbx_sanitized() != 0 else { return [] }
        let asan = getenv("ASAN_OPTIONS").map { String(cString: $0) + ":" } ?? ""
        let tsan = getenv("TSAN_OPTIONS").map { [strdup("TSAN_OPTIONS=" + String(cString: $0))] } ?? []
        return [strdup("ASAN_OPTIONS=" + asan + "detect_leaks=0")] + tsan
    }

    /// Sends `request` (its fd stays the caller's) and waits at most `timeout` seconds, or
    /// until `cancelled` says the answer is no longer wanted. `reads` answers the reads the
    /// worker asks for meanwhile (`readAt`, a source the viewer holds for it); each wait for
    /// the worker is bounded by `timeout` on its own.
    func exchange(_ request: WorkerMessage, timeout: Double, cancelled: (() -> Bool)? = nil,
                  reads: ((WorkerMessage) -> WorkerMessage)? = nil) -> Outcome {
        if let ended { return ended }
        guard request.send(on: socket) else { return reap() }
        return answer(timeout: timeout, cancelled: cancelled, meanwhile: nil, reads: reads)
    }

    /// Sends `request` and waits at most `timeout` seconds for its answer, calling
    /// `meanwhile` every few hundredths of a second: a preview session says from there that
    /// the pointer moved on, and the worker then answers early rather than being killed.
    func exchange(_ request: WorkerMessage, timeout: Double, reads: ((WorkerMessage) -> WorkerMessage)? = nil,
                  meanwhile: () -> Void) -> Outcome {
        if let ended { return ended }
        guard request.send(on: socket) else { return reap() }
        return withoutActuallyEscaping(meanwhile) { answer(timeout: timeout, cancelled: nil, meanwhile: $0, reads: reads) }
    }

    /// The answer to the request just sent, serving the reads asked for before it.
    private func answer(timeout: Double, cancelled: (() -> Bool)?, meanwhile: (() -> Void)?,
                        reads: ((WorkerMessage) -> WorkerMessage)?) -> Outcome {
        var served = 0
        while true {
            let outcome = wait(timeout: timeout, cancelled: cancelled, meanwhile: meanwhile)
            // A web playlist's container also opens and closes the parts it names.
            guard case .answer(let m) = outcome, [.readAt, .openURL, .closeURL].contains(m.kind), let reads else { return outcome }
            served += 1
            let answer = served <= ChannelReads.mostPerRequest ? reads(m) : nil
            if m.fd >= 0 { close(m.fd) }
            guard let answer else {
                stop()
                return .stopped("asked for more than \(ChannelReads.mostPerRequest) reads")
            }
            let sent = answer.send(on: socket)
            if answer.fd >= 0 { close(answer.fd) }
            guard sent else { return reap() }
        }
    }

    /// Sends a message that is never answered; nil when sent, else how the worker ended.
    func post(_ message: WorkerMessage) -> Outcome? {
        if let ended { return ended }
        return message.send(on: socket) ? nil : reap()
    }

    /// Waits at most `timeout` seconds for the worker's next message: one more answer to a
    /// request answered in several (a video packet's pictures).
    func next(timeout: Double) -> Outcome {
        if let ended { return ended }
        return wait(timeout: timeout)
    }

    /// The worker's next message if one comes within `seconds`; nil when none did, and the
    /// worker is left running: a caller that must not wait (the thread drawing the video)
    /// asks again later and keeps its own time limit.
    func message(within seconds: Double) -> Outcome? {
        if let ended { return ended }
        var p = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        var n: Int32
        repeat { n = Glibc.poll(&p, 1, Int32((max(0, seconds) * 1000).rounded(.up))) } while n < 0 && errno == EINTR
        guard n > 0 else { return nil }
        guard let m = WorkerMessage.receive(on: socket) else { return reap() }
        return .answer(m)
    }

    /// Whether a message (or the end of the channel) waits to be read, without reading it.
    var hasMessage: Bool {
        guard ended == nil else { return true }
        var p = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&p, 1, 0) != 0
    }

    /// Whether the worker's end of the channel is still open: false once it died. A worker
    /// never speaks unasked, so a waiting one that can be read from has hung up.
    var isAlive: Bool {
        guard ended == nil else { return false }
        var p = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 0
    }

    /// How often a wait that can be cancelled looks whether it was: a quit during a slow
    /// picture ends within this, not after the picture's whole time limit.
    private static let cancelCheck = 0.05

    private func wait(timeout: Double, cancelled: (() -> Bool)? = nil, meanwhile: (() -> Void)? = nil) -> Outcome {
        var p = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let end = Double(deadline.tv_sec) + Double(deadline.tv_nsec) / 1e9 + timeout
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = end - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
            guard left > 0 else {
                stop()
                return .stopped("took too long")
            }
            if let cancelled, cancelled() {
                stop()
                return .cancelled
            }
            meanwhile?()
            let slice = cancelled == nil && meanwhile == nil ? left : min(left, DecodeWorker.cancelCheck)
            let n = poll(&p, 1, Int32(slice * 1000) + 1)
            if n < 0 && errno == EINTR { continue }
            if n > 0 { break }
        }
        guard let m = WorkerMessage.receive(on: socket) else { return reap() }
        return .answer(m)
    }

    /// How the process ended, once it was collected: after that its pid and channel
    /// number may belong to another process or file, so neither is touched again.
    private var ended: Outcome?

    /// Ends the process (if it still runs) and collects it; closes the channel. Stopping a
    /// worker already collected does nothing.
    func stop() {
        guard ended == nil else { return }
        kill(pid, SIGKILL)
        _ = reap()
    }

    /// Ends the process and closes the channel now, without waiting for the kernel to tear
    /// its memory down (a few milliseconds for a decoder's, which the next item the user
    /// moved to should not wait for); the pid to collect later with `collect`.
    func stopWithoutWaiting() -> pid_t? {
        guard ended == nil else { return nil }
        kill(pid, SIGKILL)
        close(socket)
        ended = .stopped(DecodeWorker.describe(status: SIGKILL))
        return pid
    }

    /// Collects a worker stopped without waiting, if it has ended; true when it was.
    static func collect(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        var r: pid_t
        repeat { r = waitpid(pid, &status, WNOHANG) } while r < 0 && errno == EINTR
        // ECHILD: nothing left to collect.
        return r != 0
    }

    private func reap() -> Outcome {
        if let ended { return ended }
        close(socket)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = sbx_term_signal(status)
        // SIGKILL comes from outside (the watchdog, the kernel's OOM killer, a user).
        let own = signal != 0 && signal != SIGKILL
        let outcome: Outcome = own ? .crashed(DecodeWorker.describe(status: status)) : .stopped(DecodeWorker.describe(status: status))
        ended = outcome
        return outcome
    }

    /// How a worker ended, in the words the user reads after "the decoder stopped: ".
    static func describe(status: Int32) -> String {
        let signal = sbx_term_signal(status)
        switch signal {
        case 0: return "it exited (status \(sbx_exit_code(status)))"
        case SIGSYS: return "killed by the sandbox (SIGSYS)"
        case SIGKILL: return "killed (SIGKILL)"
        case SIGABRT: return "crashed (SIGABRT)"
        case SIGSEGV: return "crashed (SIGSEGV)"
        case SIGBUS: return "crashed (SIGBUS)"
        case SIGTRAP, SIGILL: return "crashed (a runtime check failed, perhaps out of memory)"
        default: return "crashed (signal \(signal))"
        }
    }
}

/// A one-line reason a decode in the worker did not happen.
struct DecodeFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
