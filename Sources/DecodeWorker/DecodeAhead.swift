import Glibc
import MediaCore
import Playback

/// A photo's full decode, started on a thread of its own the moment its first look is asked.
///
/// The viewer asks for a photo's first look and then, on the same worker, for the photo
/// itself. Served one after the other, the sharp picture waited for the small one: a 24 MP
/// JPEG's eighth-size look takes 50 ms (libjpeg still reads every coefficient) and its
/// quarter-size decode 65 ms, so the sharp picture came at 115 ms with a core idle beside
/// it. Started together, both are under way at once and the sharp picture comes when its
/// own decode ends.
final class DecodeAhead {
    /// What makes a decode request the one started ahead: the same picture (its memfd's
    /// identity, as the viewer sends a new descriptor of it each time), numbers and name.
    private struct Key: Equatable {
        let device: UInt64
        let inode: UInt64
        let numbers: [Int64]
        let name: String
    }

    private struct Pending {
        let key: Key
        let thread: JoinableThread
        let answer: Locked<WorkerMessage?>
    }

    private var pending: Pending?
    /// A JPEG worker's decodes (`Serving.decode`'s `jpegOnly`).
    private let jpegOnly: Bool

    init(jpegOnly: Bool) { self.jpegOnly = jpegOnly }

    /// Starts decoding the picture of `glance` (a first-look request, laid out as a decode
    /// with one more number) on a new thread, unless its memfd cannot be kept.
    func start(for glance: WorkerMessage) {
        settle()
        guard let key = Self.key(glance.fd, glance.numbers, glance.text) else { return }
        // The main loop closes the request's descriptor once the look is answered.
        let fd = fcntl(glance.fd, F_DUPFD_CLOEXEC, 3)
        guard fd >= 0 else { return }
        let numbers = key.numbers, text = glance.text, jpegOnly = jpegOnly
        let answer = Locked<WorkerMessage?>(nil)
        let thread = NamedThread.startJoinable(name: "mv-decode-ahead", stackSize: 8 << 20) {
            let decoded = Serving.decode(WorkerMessage(kind: .decode, numbers: numbers, text: text, fd: fd), jpegOnly: jpegOnly)
            close(fd)
            answer.withLock { $0 = decoded }
        }
        pending = Pending(key: key, thread: thread, answer: answer)
    }

    /// The answer decoded ahead for `request` when it is that decode (waiting for it to
    /// end); nil otherwise. Any decode under way is ended first either way, so a request
    /// that was not the one expected runs alone, and an unused picture's memfd is closed.
    func take(_ request: WorkerMessage) -> WorkerMessage? {
        guard let p = pending else { return nil }
        let wanted = request.kind == .decode && Self.key(request.fd, request.numbers, request.text) == p.key
        return end(keeping: wanted)
    }

    /// Ends a decode under way and lets its answer go.
    func settle() {
        _ = end(keeping: false)
    }

    /// Waits for the decode under way, if any, and returns its answer when `keeping`; else
    /// closes the answer's picture.
    private func end(keeping: Bool) -> WorkerMessage? {
        guard let p = pending else { return nil }
        pending = nil
        p.thread.join()
        guard let decoded = p.answer.withLock({ $0 }) else { return nil }
        if keeping { return decoded }
        if decoded.fd >= 0 { close(decoded.fd) }
        return nil
    }

    /// A decode's numbers are its first five; a look adds one, and messages arrive padded.
    private static func key(_ fd: Int32, _ numbers: [Int64], _ name: String) -> Key? {
        guard fd >= 0, numbers.count >= 5 else { return nil }
        var s = stat()
        guard fstat(fd, &s) == 0 else { return nil }
        return Key(device: UInt64(s.st_dev), inode: UInt64(s.st_ino), numbers: Array(numbers.prefix(5)), name: name)
    }
}
