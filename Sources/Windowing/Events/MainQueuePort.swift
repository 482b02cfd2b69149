import Dispatch
import Glibc

// libdispatch's hooks for a run loop that serves the main queue, as CoreFoundation's run loop
// does on Linux: an eventfd that becomes readable when main-queue work is waiting, and the
// call that runs that work. They are exported by every libdispatch the toolchain ships.
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func dispatchMainQueueHandle() -> Int32
@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchRunMainQueue(_ message: UnsafeMutableRawPointer?)

/// The main dispatch queue, served by the viewer's loop: work an app schedules with
/// `DispatchQueue.main`, `Task { @MainActor in }` or a main-queue timer runs between turns.
/// It is the one way work reaches the main thread: the viewer's own background threads
/// (a download that completed, a preload) post there too.
///
/// Only the process's main thread may serve it, and only while nobody called
/// `dispatchMain()` (after which libdispatch serves the queue itself, from its own threads);
/// elsewhere there is no port and the queue is left to libdispatch.
struct MainQueuePort {
    /// Readable when main-queue work is waiting.
    let descriptor: Int32

    /// The port when the calling thread is the process's main thread, else nil.
    static func forThisThread() -> MainQueuePort? {
        guard isMainThread() else { return nil }
        let fd = dispatchMainQueueHandle()
        guard fd >= 0 else { return nil }
        // The loop reads it whether or not work is waiting; a read must never block.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return MainQueuePort(descriptor: fd)
    }

    /// Runs the main queue's waiting work and clears the wake-up.
    func run() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
        dispatchRunMainQueue(nil)
    }

    /// Whether the calling thread is the process's first: its thread id equals the pid.
    /// `/proc/thread-self` names it as "PID/task/TID" without a syscall Swift cannot call.
    private static func isMainThread() -> Bool {
        var buf = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &buf, buf.count - 1)
        guard n > 0 else { return false }
        let parts = String(decoding: buf.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "/")
        return parts.count == 3 && parts[0] == parts[2]
    }
}
