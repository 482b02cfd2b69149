import CFFmpeg
import Glibc

/// An `AVIOContext` whose bytes come from a function given the offset: the I/O of a source
/// another part reads, such as a worker's, whose reads the viewer answers over its channel.
///
/// It keeps the position and the size; the function is called for reads only, with the
/// offset, a buffer and the room in it, and answers as a read does (the count, 0 at the
/// end, or a negative FFmpeg error).
package final class ReaderIO: CustomIO, @unchecked Sendable {
    // @unchecked: used by the one thread that demuxes through it, like every CustomIO.
    private let size: Int64
    private var position: Int64 = 0
    private let fetch: (Int64, UnsafeMutablePointer<UInt8>, Int) -> Int32

    /// Reads a source of `size` bytes (negative: not known) through `fetch`; nil when out
    /// of memory.
    package init?(size: Int64, fetch: @escaping (Int64, UnsafeMutablePointer<UInt8>, Int) -> Int32) {
        self.size = size
        self.fetch = fetch
        super.init(bufferSize: 64 * 1024)
    }

    override package func read(into buffer: UnsafeMutablePointer<UInt8>, size want: Int) -> Int32 {
        if size >= 0 && position >= size { return cff_averror_eof }
        let n = fetch(position, buffer, want)
        guard n != 0 else { return cff_averror_eof }
        if n > 0 { position += Int64(n) }
        return n
    }

    override package func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & Int32(AVSEEK_SIZE) != 0 { return size >= 0 ? size : Int64(cff_averror(ENOSYS)) }
        guard let t = CustomIO.target(offset: offset, whence: whence, current: position, size: size), t >= 0 else {
            return Int64(cff_averror(EINVAL))
        }
        position = t
        return t
    }
}

extension ReaderIO {
    /// An `AVIOContext` over an open file descriptor, read with `pread` at its own position.
    ///
    /// A sandboxed worker is handed the video's descriptor and may open no path, so FFmpeg
    /// reads and seeks through this; nothing is copied (a video of gigabytes stays on disk
    /// and only the parts the demuxer asks for are read). The descriptor stays the
    /// caller's: this never closes it. `size`: the regular file's size. nil without memory.
    package static func descriptor(_ fd: Int32, size: Int64) -> ReaderIO? {
        ReaderIO(size: size) { offset, buffer, want in
            while true {
                let n = pread(fd, buffer, want, off_t(offset))
                if n < 0 && errno == EINTR { continue }
                return n < 0 ? cff_averror(errno) : Int32(n)
            }
        }
    }
}
