import Glibc

/// Starts detached, named OS threads for the pipeline stages (demux, decode, audio).
///
/// The name shows in `top -H`, `gdb` and crash reports, as mpv's threads do. Plain
/// pthreads rather than Foundation's `Thread`, which would bring Foundation and ICU into
/// every process (about 6 MiB of resident memory) for this alone.
public enum NamedThread {
    /// Runs `body` on a new thread called `name` (cut to the 15 bytes Linux keeps).
    public static func start(name: String, stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(ThreadStart(name: name, body: body)).toOpaque()
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attr, stackSize)
        var tid = pthread_t()
        let r = pthread_create(&tid, &attr, threadEntry, start)
        pthread_attr_destroy(&attr)
        // Out of threads is not something a viewer can recover from mid-pipeline.
        precondition(r == 0, "cannot start thread \(name): error \(r)")
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
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

private func threadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let start = Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue()
    NamedThread.setName(start.name)
    start.body()
    return nil
}
