import CFFmpeg
import Glibc

/// An `AVIOContext` over an open file descriptor, read with `pread` at its own position.
///
/// A gallery's sandboxed worker is handed the video's descriptor and may open no path, so
/// FFmpeg reads and seeks through this; nothing is copied (a video of gigabytes stays on
/// disk and only the parts the demuxer asks for are read). The descriptor stays the
/// caller's: this never closes it.
package final class DescriptorIO: CustomIO, @unchecked Sendable {
    // @unchecked: used by the one thread that demuxes through it, like every CustomIO.
    private let fd: Int32
    private let size: Int64
    private var position: Int64 = 0

    /// Reads `fd`, a regular file of `size` bytes; nil when out of memory.
    package init?(fd: Int32, size: Int64) {
        self.fd = fd
        self.size = size
        super.init(bufferSize: 64 * 1024)
    }

    override package func read(into buffer: UnsafeMutablePointer<UInt8>, size want: Int) -> Int32 {
        while true {
            let n = pread(fd, buffer, want, off_t(position))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return cff_averror(errno) }
            guard n > 0 else { return cff_averror_eof }
            position += Int64(n)
            return Int32(n)
        }
    }

    override package func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & Int32(AVSEEK_SIZE) != 0 { return size }
        let t: Int64
        switch whence & ~Int32(AVSEEK_FORCE) {
        case SEEK_SET: t = offset
        case SEEK_CUR: t = position + offset
        case SEEK_END: t = size + offset
        default: return Int64(cff_averror(EINVAL))
        }
        guard t >= 0 else { return Int64(cff_averror(EINVAL)) }
        position = t
        return t
    }
}
