import CFFmpeg
import CSandbox
import Glibc

/// Pictures decoded straight into shared memory. A worker answers with its picture's memfd;
/// decoded into the heap, the picture was copied into a new memfd first (6 MB for a 24 MP
/// photo shown at a quarter, a few milliseconds of a launch the user waits for).
extension Frame {
    /// A frame of `width` x `height` four-byte pixels whose one plane, rows packed without
    /// padding, is a new memfd mapped shared. Nil when out of memory.
    static func shared(width: Int, height: Int, format: AVPixelFormat) -> Frame? {
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int.max / (width * 4) else { return nil }
        let stride = width * 4, size = stride * height
        let fd = sbx_memfd("mediaview-pixels")
        guard fd >= 0 else { return nil }
        let frame = Frame(memfd: fd)
        guard ftruncate(fd, off_t(size)) == 0 else { return nil }
        let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let p, p != MAP_FAILED else { return nil }
        // libavutil frees the plane when its last reference goes: the mapping's size rides
        // in the opaque pointer, since the callback cannot capture it.
        guard let buffer = av_buffer_create(p.assumingMemoryBound(to: UInt8.self), size,
                                            { opaque, data in munmap(data, Int(bitPattern: opaque)) },
                                            UnsafeMutableRawPointer(bitPattern: size), 0) else {
            munmap(p, size)
            return nil
        }
        let f = frame.raw
        f.pointee.buf.0 = buffer
        f.pointee.data.0 = p.assumingMemoryBound(to: UInt8.self)
        f.pointee.linesize.0 = Int32(stride)
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = format.rawValue
        return frame
    }

    /// The memfd of a frame made by `shared` whose plane is still the whole of it, sealed
    /// for handing over: its size fixed, and no writes but through the mapping this process
    /// already has (the frame is let go of once answered). A duplicate, for the message to
    /// own; nil for any other frame, or when the kernel refuses.
    func sealedMemfd() -> Int32? {
        let f = raw.pointee
        guard let fd = memfd, let buffer = f.buf.0, f.data.0 == buffer.pointee.data,
              Int(f.linesize.0) == Int(f.width) * 4, buffer.pointee.size == Int(f.linesize.0) * Int(f.height),
              sbx_seal_handed_over(fd) == 0 else { return nil }
        let out = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        return out >= 0 ? out : nil
    }
}
