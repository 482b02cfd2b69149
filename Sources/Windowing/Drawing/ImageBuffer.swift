import CX11
import Glibc

/// One XImage the size of a window: in a shared-memory segment when the server is local,
/// else in ordinary memory sent with XPutImage.
///
/// The SHM segment is marked for removal (`IPC_RMID`) right after the server attached it,
/// so the kernel frees it when both sides let go, even if this process is killed.
final class ImageBuffer {
    let display: XDisplay
    let image: UnsafeMutablePointer<XImage>
    /// Stable storage: XShmCreateImage keeps a pointer to it.
    private let shmInfo: UnsafeMutablePointer<XShmSegmentInfo>?
    private let ownedMemory: UnsafeMutableRawPointer?
    let width: Int
    let height: Int
    /// Waiting for the server's completion event before it may be drawn into again.
    var inFlight = false

    var usesShm: Bool { shmInfo != nil }

    /// Whether the buffer is all black until drawn into: a new SHM segment is, as the
    /// kernel hands it out zeroed (ordinary memory is not).
    var startsBlack: Bool { usesShm }

    /// The server's id for the segment, matched against completion events.
    var shmSegment: ShmSeg? { shmInfo?.pointee.shmseg }

    var pixels: PixelBuffer {
        PixelBuffer(base: UnsafeMutableRawPointer(image.pointee.data), width: width, height: height,
                    stride: Int(image.pointee.bytes_per_line))
    }

    /// Makes a buffer, trying SHM first when allowed. Nil when even plain memory fails.
    init?(display: XDisplay, width: Int, height: Int, shm: Bool) {
        self.display = display
        self.width = width
        self.height = height
        if shm, let (img, info) = ImageBuffer.makeShm(display, width, height) {
            image = img
            shmInfo = info
            ownedMemory = nil
            return
        }
        let stride = width * 4
        let mem = UnsafeMutableRawPointer.allocate(byteCount: max(4, stride * height), alignment: 64)
        guard let img = XCreateImage(display.raw, display.visual, UInt32(display.depth), ZPixmap, 0,
                                     mem.assumingMemoryBound(to: CChar.self), UInt32(width), UInt32(height), 32,
                                     Int32(stride)) else {
            mem.deallocate()
            return nil
        }
        image = img
        shmInfo = nil
        ownedMemory = mem
    }

    deinit {
        if let info = shmInfo {
            XShmDetach(display.raw, info)
            // The server must have let go before the memory goes away.
            XSync(display.raw, 0)
            shmdt(info.pointee.shmaddr)
            info.deallocate()
        }
        // XDestroyImage would free data it did not allocate.
        image.pointee.data = nil
        _ = cx11_destroy_image(image)
        ownedMemory?.deallocate()
    }

    private static func makeShm(_ d: XDisplay, _ w: Int, _ h: Int)
        -> (UnsafeMutablePointer<XImage>, UnsafeMutablePointer<XShmSegmentInfo>)? {
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        guard let img = XShmCreateImage(d.raw, d.visual, UInt32(d.depth), ZPixmap, nil, info, UInt32(w), UInt32(h)) else {
            info.deallocate()
            return nil
        }
        let bytes = Int(img.pointee.bytes_per_line) * h
        let id = shmget(cx11_ipc_private, max(bytes, 4), IPC_CREAT | 0o600)
        guard id >= 0 else {
            _ = cx11_destroy_image(img)
            info.deallocate()
            return nil
        }
        guard let addr = shmat(id, nil, 0), addr != UnsafeMutableRawPointer(bitPattern: -1) else {
            shmctl(id, IPC_RMID, nil)
            _ = cx11_destroy_image(img)
            info.deallocate()
            return nil
        }
        info.pointee.shmid = id
        info.pointee.shmaddr = addr.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 0
        img.pointee.data = info.pointee.shmaddr
        XDisplay.errorCode.store(0, ordering: .relaxed)
        let attached = XShmAttach(d.raw, info) != 0
        XSync(d.raw, 0)
        // Removal now means the segment cannot outlive us, crash or not.
        shmctl(id, IPC_RMID, nil)
        if !attached || XDisplay.errorCode.load(ordering: .relaxed) != 0 {
            shmdt(addr)
            img.pointee.data = nil
            _ = cx11_destroy_image(img)
            info.deallocate()
            return nil
        }
        return (img, info)
    }

    /// Sends the rectangle to the window (the whole buffer by default).
    func put(to window: UInt, gc: GC, x: Int = 0, y: Int = 0, dstX: Int = 0, dstY: Int = 0,
             width w: Int? = nil, height h: Int? = nil) {
        let pw = UInt32(w ?? width), ph = UInt32(h ?? height)
        if usesShm {
            XShmPutImage(display.raw, window, gc, image, Int32(x), Int32(y), Int32(dstX), Int32(dstY), pw, ph, 1)
            inFlight = true
        } else {
            XPutImage(display.raw, window, gc, image, Int32(x), Int32(y), Int32(dstX), Int32(dstY), pw, ph)
        }
    }
}
