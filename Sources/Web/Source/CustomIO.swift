import CFFmpeg
import MediaCore

/// A read-only `AVIOContext` whose reads and seeks are Swift methods: the base of
/// `MemoryIO` (bytes in memory) and `CachingIO` (the network, copied to the cache).
///
/// FFmpeg gets an unretained pointer to the object as `opaque`; the object owns the
/// context and frees it (and its buffer, which FFmpeg may have replaced) in `close()`, so
/// the pointer never outlives the object. A format context opened over it must be closed
/// first (`AVFMT_FLAG_CUSTOM_IO` tells FFmpeg not to free it).
package class CustomIO: @unchecked Sendable {
    // @unchecked: used by one demux (or download) thread at a time; `close` comes after
    // the format context that reads through it has been closed.
    /// The context FFmpeg reads through; nil once closed.
    package private(set) var context: UnsafeMutablePointer<AVIOContext>?
    /// Why the last read or the open failed, in words (FFmpeg only gets a number).
    package var failure: AVError?

    /// Allocates the context; nil when out of memory.
    package init?(bufferSize: Int32 = 64 * 1024) {
        guard let buffer = av_malloc(Int(bufferSize))?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        let ctx = avio_alloc_context(buffer, bufferSize, 0, opaque, { opaque, buf, size in
            guard let opaque, let buf else { return cff_averror(EINVAL) }
            return Unmanaged<CustomIO>.fromOpaque(opaque).takeUnretainedValue().read(into: buf, size: Int(size))
        }, nil, { opaque, offset, whence in
            guard let opaque else { return Int64(cff_averror(EINVAL)) }
            return Unmanaged<CustomIO>.fromOpaque(opaque).takeUnretainedValue().seek(to: offset, whence: whence)
        })
        guard let ctx else {
            av_free(buffer)
            return nil
        }
        context = ctx
    }

    deinit { freeContext() }

    /// Fills up to `size` bytes; returns the count, `AVERROR_EOF` at the end, or an error.
    package func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int) -> Int32 { cff_averror_eof }

    /// `lseek` semantics plus `AVSEEK_SIZE` (the total size, or an error if unknown).
    package func seek(to offset: Int64, whence: Int32) -> Int64 { Int64(cff_averror(ENOSYS)) }

    /// Lets go of the context. Subclasses release their own resources and call this.
    package func close() { freeContext() }

    private func freeContext() {
        guard let ctx = context else { return }
        context = nil
        // The buffer FFmpeg holds now may not be the one we gave it.
        av_freep(&ctx.pointee.buffer)
        var p: UnsafeMutablePointer<AVIOContext>? = ctx
        avio_context_free(&p)
    }

    /// The new position for a seek request against a source of `size` bytes (-1: unknown).
    package static func target(offset: Int64, whence: Int32, current: Int64, size: Int64) -> Int64? {
        switch whence & ~Int32(AVSEEK_FORCE) {
        case SEEK_SET: return offset
        case SEEK_CUR: return current + offset
        case SEEK_END: return size >= 0 ? size + offset : nil
        default: return nil
        }
    }
}
