import CFFmpeg
import CFrameShare
import Glibc
import MediaCore

/// A decoded picture as a `videoFrame` message carries it: where it lies in its slot, and
/// what the scheduler and the scaler read of it.
///
/// Numbers: the picture's number (for the release), its slot, pixel format, width, height,
/// four planes (offset in the slot above 24 bits, line size below), best-effort timestamp,
/// duration, colour (range, primaries, transfer, matrix, a byte each), sample aspect ratio,
/// flags (key frame, interlaced, top field first), timestamp. The fd is the slot's memfd
/// the first time the slot is used.
enum VideoFrameMessage {
    static func make(_ f: UnsafeMutablePointer<AVFrame>, number: Int64, place: cfs_place) -> WorkerMessage {
        let p = f.pointee
        var planes = [Int64](repeating: 0, count: 4)
        withUnsafeBytes(of: place.offsets) { offsets in
            withUnsafeBytes(of: p.linesize) { lines in
                for i in 0..<4 {
                    let line = Int64(lines.load(fromByteOffset: i * 4, as: Int32.self))
                    planes[i] = offsets.load(fromByteOffset: i * 8, as: Int64.self) << 24 | (line & 0xFF_FFFF)
                }
            }
        }
        let colour = Int64(p.color_range.rawValue) | Int64(p.color_primaries.rawValue) << 8
            | Int64(p.color_trc.rawValue) << 16 | Int64(p.colorspace.rawValue) << 24
        let flags = Int64(p.key_frame != 0 ? 1 : 0) | Int64(p.interlaced_frame != 0 ? 2 : 0) | Int64(p.top_field_first != 0 ? 4 : 0)
        return WorkerMessage(kind: .videoFrame,
                             numbers: [number, place.slot, Int64(p.format), Int64(p.width), Int64(p.height)] + planes
                                 + [p.best_effort_timestamp, p.pkt_duration, colour, StreamOpening.pack(p.sample_aspect_ratio),
                                    flags, p.pts],
                             fd: place.fd)
    }

    /// The picture a message describes, over `slot`'s pixels, or nil when the message does
    /// not fit the slot (the worker is not trusted: nothing is read until it does).
    static func frame(_ m: WorkerMessage, slot: FrameSlot, release: FrameRelease) -> Frame? {
        let n = m.numbers
        let format = Int32(truncatingIfNeeded: n[2]), width = Int32(truncatingIfNeeded: n[3]), height = Int32(truncatingIfNeeded: n[4])
        guard n[3] == Int64(width), n[4] == Int64(height) else { return nil }
        var offsets: (Int64, Int64, Int64, Int64) = (n[5] >> 24, n[6] >> 24, n[7] >> 24, n[8] >> 24)
        var lines: (Int64, Int64, Int64, Int64) = (n[5] & 0xFF_FFFF, n[6] & 0xFF_FFFF, n[7] & 0xFF_FFFF, n[8] & 0xFF_FFFF)
        let fits = withUnsafePointer(to: &offsets) { o in
            withUnsafePointer(to: &lines) { l in
                o.withMemoryRebound(to: Int64.self, capacity: 4) { o in
                    l.withMemoryRebound(to: Int64.self, capacity: 4) { l in
                        cfs_fits(format, width, height, o, l, slot.size) == 1
                    }
                }
            }
        }
        guard fits else { return nil }
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = format
        f.pointee.width = width
        f.pointee.height = height
        let wrapped = release.attach { callback, opaque in
            withUnsafePointer(to: &offsets) { o in
                withUnsafePointer(to: &lines) { l in
                    o.withMemoryRebound(to: Int64.self, capacity: 4) { o in
                        l.withMemoryRebound(to: Int64.self, capacity: 4) { l in
                            cfs_wrap(f, slot.base, slot.size, o, l, callback, opaque)
                        }
                    }
                }
            }
        }
        guard wrapped else { return nil }
        f.pointee.best_effort_timestamp = n[9]
        f.pointee.pkt_duration = n[10]
        f.pointee.pts = n[14]
        let colour = n[11]
        f.pointee.color_range = AVColorRange(rawValue: UInt32(colour & 0xFF))
        f.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(colour >> 8 & 0xFF))
        f.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(colour >> 16 & 0xFF))
        f.pointee.colorspace = AVColorSpace(rawValue: UInt32(colour >> 24 & 0xFF))
        f.pointee.sample_aspect_ratio = StreamOpening.unpack(n[12])
        f.pointee.key_frame = n[13] & 1 != 0 ? 1 : 0
        f.pointee.interlaced_frame = n[13] & 2 != 0 ? 1 : 0
        f.pointee.top_field_first = n[13] & 4 != 0 ? 1 : 0
        return frame
    }
}

/// One slot memfd of a worker's, mapped read-only in the viewer; unmapped when neither
/// the video nor any picture in it needs it any more.
final class FrameSlot: @unchecked Sendable {
    // @unchecked: immutable; the mapping is only read.
    let base: UnsafeMutablePointer<UInt8>
    let size: Int

    /// Maps the slot memfd `fd` (which stays the caller's); nil when it is not a sealed one.
    init?(fd: Int32) {
        var base: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard cfs_map_slot(fd, &base, &size) == 0, let base else { return nil }
        self.base = base
        self.size = size
    }

    deinit { cfs_unmap_slot(base, size) }
}

/// What ends when the viewer lets go of a worker's picture: its number goes on the list the
/// decode thread sends back, and its slot's mapping is held until then.
final class FrameRelease: @unchecked Sendable {
    // @unchecked: immutable but for the shared list, which is locked.
    private let number: Int64
    private let slot: FrameSlot
    private let released: Locked<[Int64]>

    init(number: Int64, slot: FrameSlot, released: Locked<[Int64]>) {
        self.number = number
        self.slot = slot
        self.released = released
    }

    /// Called by FFmpeg when the picture's last reference goes, on whichever thread that is.
    func done() { released.withLock { $0.append(number) } }

    /// The C callback that ends a frame's buffer.
    typealias Callback = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?) -> Void

    /// Calls `wrap` with the callback and this release as its opaque pointer, which the
    /// frame's buffer then holds; false, and nothing held, when wrapping failed.
    func attach(_ wrap: (Callback, UnsafeMutableRawPointer) -> Int32) -> Bool {
        let opaque = Unmanaged.passRetained(self).toOpaque()
        guard wrap({ opaque, _ in Unmanaged<FrameRelease>.fromOpaque(opaque!).takeRetainedValue().done() }, opaque) >= 0 else {
            Unmanaged<FrameRelease>.fromOpaque(opaque).release()
            return false
        }
        return true
    }
}
