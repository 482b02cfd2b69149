import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc

/// An `AVIOContext` over bytes in memory: how an image or GIF from `MemoryCache` is opened
/// without touching the network or the disk.
package final class MemoryIO: CustomIO, @unchecked Sendable {
    private let bytes: [UInt8]
    private var position = 0

    /// Reads `data`; nil when out of memory.
    package init?(data: Data) {
        bytes = [UInt8](data)
        super.init(bufferSize: 32 * 1024)
    }

    override package func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int) -> Int32 {
        let n = min(size, bytes.count - position)
        guard n > 0 else { return cff_averror_eof }
        bytes.withUnsafeBufferPointer { src in
            buffer.update(from: src.baseAddress! + position, count: n)
        }
        position += n
        return Int32(n)
    }

    override package func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & Int32(AVSEEK_SIZE) != 0 { return Int64(bytes.count) }
        guard let t = CustomIO.target(offset: offset, whence: whence, current: Int64(position), size: Int64(bytes.count)),
              t >= 0, t <= Int64(bytes.count) else { return Int64(cff_averror(EINVAL)) }
        position = Int(t)
        return t
    }
}
