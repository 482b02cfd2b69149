import CSandbox
import Glibc
import Playback

/// The warm worker the viewer forks the others from.
///
/// A worker started as a new program spends 25-60 ms of a core binding FFmpeg's libraries
/// and the hundred libraries they link, before it decodes anything: most of a film's launch,
/// which starts three of them. The zygote does that once, as a photos worker would, and then
/// only forks. Each worker it forks confines itself as a started one does, and its parent
/// is the viewer (a subreaper), which collects it and reads how it ended.
///
/// The zygote parses no media: it reads fork requests from the viewer, nothing else.
enum Zygote {
    /// How long no request comes before the zygote counts a launch's forks as done.
    static let quietMilliseconds: Int32 = 250

    /// The kind of worker this process is: named by its argument, or, in a zygote, by the
    /// request it was forked for (the zygote itself never returns from here).
    static func kind() -> WorkerKind {
        let argument = CommandLine.arguments.dropFirst().first
        guard argument == "zygote" else { return argument.flatMap(WorkerKind.init(rawValue:)) ?? .drawings }
        let first = getenv(WorkerKind.zygoteFirstVariable).flatMap { WorkerKind(rawValue: String(cString: $0)) } ?? .photos
        unsetenv(WorkerKind.zygoteFirstVariable)
        return serve(channel: 0, first: first)
    }

    /// Warms up for `first`, says it is ready, and forks a worker for each request until the
    /// viewer hangs up; returns in each forked worker, with its kind.
    private static func serve(channel: Int32, first: WorkerKind) -> WorkerKind {
        sbx_close_from(3)
        var steps: Int32 = 0
        if sbx_die_with_parent() == 0 { steps |= Int32(SBX_PDEATHSIG) }
        if sbx_no_new_privs() == 0 { steps |= Int32(SBX_NO_NEW_PRIVS) }
        // A film's first workers need only FFmpeg's demuxers and decoders: the photo formats'
        // libraries and Little CMS wait until the launch's forks are done. A photo's launch
        // has them at once (a photos worker loading them after the fork took 15-20 ms longer
        // to its first picture). A JPEG's launch needs only the JPEG worker's few libraries:
        // FFmpeg's (30 ms) wait as the photo formats do for a film. The drawings' and
        // subtitles' own are loaded after the fork, by the worker that needs them.
        let film = first == .containers || first == .media
        Warmup.run(film ? .containers : first == .jpegs ? .jpegs : .photos)
        let viewer = getppid()
        guard WorkerMessage(kind: .ready, numbers: [Int64(steps)]).send(on: channel) else { exit(0) }
        // Loading, the zygote read the symbol tables and start-up code of every library; its
        // workers map what they use themselves. Those pages leave the zygote's memory once
        // its first worker is on its way, and again after the photos' warm-up (they stay in
        // the page cache). Not before the first fork: that waits on the zygote.
        var released = false, warmedForPhotos = !film && first != .jpegs
        func release() {
            guard !released else { return }
            ReadOnlyPages.letGo()
            released = true
        }
        while true {
            if !warmedForPhotos, sbx_wait_message(channel, quietMilliseconds) == 0 {
                Warmup.run(.photos)
                warmedForPhotos = true
                ReadOnlyPages.letGo()
                released = true
            }
            guard let request = WorkerMessage.receive(on: channel) else { break }
            guard request.kind == .fork, request.fd >= 0, let kind = WorkerKind(rawValue: request.text) else {
                if request.fd >= 0 { close(request.fd) }
                guard WorkerMessage(kind: .failure, text: "the zygote only forks decoders").send(on: channel) else { exit(0) }
                continue
            }
            let pid = sbx_fork_to(viewer)
            if pid == 0 {
                become(kind, channel: request.fd, testing: request.numbers[0] == 1)
                return kind
            }
            let why = String(cString: strerror(errno))
            close(request.fd)
            let answer = pid > 0 ? WorkerMessage(kind: .forked, numbers: [Int64(pid)])
                : WorkerMessage(kind: .failure, text: "cannot fork a decoder: \(why)")
            guard answer.send(on: channel) else { exit(0) }
            release()
        }
        exit(0)
    }

    /// In a forked worker: its own channel on fd 0 in place of the zygote's, its kind in its
    /// command line, the environment a started one would have had (the tests' flag, and the
    /// user's folders only for the subtitles worker).
    private static func become(_ kind: WorkerKind, channel: Int32, testing: Bool) {
        dup2(channel, 0)
        close(channel)
        _ = sbx_retitle(kind.rawValue, Int32(CommandLine.arguments.count))
        if testing { setenv("MEDIAVIEW_WORKER_TEST", "1", 1) } else { unsetenv("MEDIAVIEW_WORKER_TEST") }
        guard kind != .subtitles else { return }
        for name in WorkerKind.fontEnvironment { unsetenv(name) }
    }
}
