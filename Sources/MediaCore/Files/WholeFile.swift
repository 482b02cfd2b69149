import Glibc

/// A file the caller has opened and checked (a regular file, a size within its limit) read
/// into memory in one go: stills, thumbnails and the sandboxed worker's input are parsed
/// whole, and each of them read it the same way.
package enum WholeFile {
    /// Up to `size` bytes of `fd` from its start; fewer when the file shrank meanwhile. A
    /// read interrupted by a signal is tried again; any other error ends the read early, and
    /// the parser then meets a short file, which it reports as cut short.
    /// The array is read into uninitialised: zeroing a photo's megabytes first only to
    /// overwrite them cost its first picture about a millisecond.
    package static func read(_ fd: Int32, size: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(0, size)) { buffer, count in
            var filled = 0
            while filled < buffer.count {
                let n = pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(filled))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                filled += n
            }
            count = filled
        }
    }
}
