import CSandbox
import Glibc

/// Bytes in a sealed memfd: what crosses to and from a decode worker.
///
/// Sealed against writing, growing and shrinking, so the side that maps it reads exactly
/// what was written and cannot be changed under it, or made to fault, by the other side.
public enum SealedBytes {
    /// A sealed memfd holding `parts` one after the other, or nil without memory.
    public static func make(_ parts: [UnsafeRawBufferPointer], name: String) -> Int32? {
        let fd = sbx_memfd(name)
        guard fd >= 0 else { return nil }
        var ok = true
        for part in parts where part.count > 0 {
            var done = 0
            while done < part.count {
                let n = write(fd, part.baseAddress! + done, part.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { ok = false; break }
                done += n
            }
        }
        guard ok, sbx_seal(fd) == 0 else { close(fd); return nil }
        return fd
    }

    /// The size of the memfd `fd`, or nil when it is not one that can be read.
    public static func size(_ fd: Int32) -> Int? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return Int(st.st_size)
    }

    /// `fd`'s bytes mapped privately (writes stay in this process), or nil. Nil too for a
    /// memfd whose size the other side could still cut: reading past its new end would
    /// fault, and a worker must not be able to end the viewer that way.
    public static func map(_ fd: Int32, count: Int) -> UnsafeMutableRawPointer? {
        guard count > 0, sbx_size_sealed(fd) == 1, let size = size(fd), size >= count else { return nil }
        let p = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)
        return p == MAP_FAILED ? nil : p
    }
}
