import Glibc

/// Starts named OS threads for the pipeline stages (demux, decode, audio).
///
/// The name shows in `top -H`, `gdb` and crash reports, as mpv's threads do. Plain
/// pthreads rather than Foundation's `Thread`, which would bring Foundation and ICU into
/// every process (about 6 MiB of resident memory) for this alone.
///
/// Every thread started here counts in `BackgroundThreads` until its body has returned and
/// let go of everything it captured, so the program can wait for them before it exits:
/// a thread still releasing a player while `exit` runs the libraries' destructors
/// crashed the viewer at quit.
public enum NamedThread {
    /// Runs `body` on a new, detached thread called `name` (cut to the 15 bytes Linux keeps).
    /// A `lifelong` thread serves the whole program and is not waited for at exit.
    public static func start(name: String, stackSize: Int = 1 << 20, lifelong: Bool = false,
                             _ body: @escaping @Sendable () -> Void) {
        _ = create(name: name, stackSize: stackSize, detached: true, counted: !lifelong, body)
    }

    /// Runs `body` on a new thread called `name` that its owner must `join()`.
    public static func startJoinable(name: String, stackSize: Int = 1 << 20,
                                     _ body: @escaping @Sendable () -> Void) -> JoinableThread {
        JoinableThread(id: create(name: name, stackSize: stackSize, detached: false, counted: true, body))
    }

    private static func create(name: String, stackSize: Int, detached: Bool, counted: Bool,
                               _ body: @escaping @Sendable () -> Void) -> pthread_t {
        if counted { BackgroundThreads.started() }
        let start = Unmanaged.passRetained(ThreadStart(name: name, counted: counted, body: body)).toOpaque()
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        pthread_attr_setdetachstate(&attr, Int32(detached ? PTHREAD_CREATE_DETACHED : PTHREAD_CREATE_JOINABLE))
        pthread_attr_setstacksize(&attr, stackSize)
        var tid = pthread_t()
        let r = pthread_create(&tid, &attr, threadEntry, start)
        pthread_attr_destroy(&attr)
        // Out of threads is not something a viewer can recover from mid-pipeline.
        precondition(r == 0, "cannot start thread \(name): error \(r)")
        return tid
    }

    /// Names the calling thread through procfs: what `pthread_setname_np` does, which
    /// Swift's Glibc module does not declare (it needs _GNU_SOURCE).
    fileprivate static func setName(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}

/// What a new thread runs, handed over through pthread_create's one pointer.
private final class ThreadStart: @unchecked Sendable {
    // @unchecked: immutable, and passed from the creating thread to the new one once.
    let name: String
    let counted: Bool
    let body: @Sendable () -> Void
    init(name: String, counted: Bool, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.counted = counted
        self.body = body
    }
}

private func threadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    var start: ThreadStart? = Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue()
    let counted = start!.counted
    NamedThread.setName(start!.name)
    start!.body()
    // What the body captured (a player's stages, their decoders and sound stream) is let go
    // here, on this thread, before it counts as ended: whoever waits for it then knows none
    // of that is still being torn down.
    start = nil
    if counted { BackgroundThreads.ended() }
    return nil
}
