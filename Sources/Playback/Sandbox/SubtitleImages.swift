import CFrameShare
import CSandbox
import Glibc
import Subtitles

/// A frame's subtitle images as the worker that draws them hands them over: a table of
/// images, then their coverage masks row by row, in a memfd of the worker's.
///
/// The memfd is the worker's for the life of the drawing: it writes each new frame's images
/// in place and sends the descriptor again only when it needs a larger one. Its size is
/// sealed, so a subverted worker cannot shrink it under the viewer's mapping; every number
/// in the table is checked against that size before a mask is read.
package enum SubtitleImages {
    /// Numbers a table entry holds: width, height, x, y, colour (RGBA, alpha as opacity),
    /// and the mask's offset in the memfd (its rows are `width` bytes apart).
    static let entry = 6
    /// The most images a frame may hold: libass gives a few per line (glyphs, border, shadow).
    package static let mostImages = 4096
    /// The largest memfd: four full-HD frames of masks, the renderer's own pixel budget.
    static let largest = 64 << 20

    /// One image of a frame, as the viewer reads it from the memfd.
    package struct Placed: Equatable {
        var width: Int, height: Int, x: Int, y: Int
        var color: UInt32
        var offset: Int
    }

    // MARK: The worker's side

    /// The worker's memfd, mapped for writing.
    package final class Area {
        let fd: Int32
        let base: UnsafeMutableRawPointer
        let size: Int

        /// A new memfd of `size` bytes whose size is sealed; nil without memory.
        init?(size: Int) {
            let fd = sbx_memfd("mediaview-subtitles")
            guard fd >= 0 else { return nil }
            guard ftruncate(fd, off_t(size)) == 0,
                  sbx_seal_size(fd) == 0,
                  let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), p != MAP_FAILED else {
                close(fd)
                return nil
            }
            self.fd = fd
            base = p
            self.size = size
        }

        deinit {
            munmap(base, size)
            close(fd)
        }
    }

    /// Writes `bitmaps` (masks still valid: the renderer has not drawn since) into `area`, a
    /// larger one when they do not fit, each mask's rows packed `width` bytes apart, and
    /// makes the answer: 1 (changed), their count, the bytes used; the fd when the area is
    /// new. Nil without memory or over the bounds.
    package static func answer(_ bitmaps: [SubtitleBitmap], area: inout Area?) -> WorkerMessage? {
        let count = min(bitmaps.count, mostImages)
        let table = count * entry * 4
        let used = table + bitmaps.prefix(count).reduce(0) { $0 + $1.width * $1.height }
        guard used <= largest else { return nil }
        var fresh = false
        if (area?.size ?? 0) < max(used, 1) {
            // Room to grow, so a frame a line longer does not need yet another memfd.
            guard let bigger = Area(size: min(largest, max(1 << 20, used * 2))) else { return nil }
            area = bigger
            fresh = true
        }
        guard let area else { return nil }
        var offset = table
        for (i, b) in bitmaps.prefix(count).enumerated() {
            let color = UInt32(b.red) << 24 | UInt32(b.green) << 16 | UInt32(b.blue) << 8 | UInt32(b.alpha)
            let numbers = [Int32(b.width), Int32(b.height), Int32(b.x), Int32(b.y), Int32(bitPattern: color), Int32(offset)]
            for (j, n) in numbers.enumerated() { area.base.storeBytes(of: n, toByteOffset: (i * entry + j) * 4, as: Int32.self) }
            for row in 0..<b.height { memcpy(area.base + offset + row * b.width, b.mask + row * b.stride, b.width) }
            offset += b.width * b.height
        }
        // fcntl, not dup: the worker's filter allows only the one.
        let fd = fresh ? fcntl(area.fd, F_DUPFD_CLOEXEC, 0) : -1
        return WorkerMessage(kind: .subtitleImages, numbers: [1, Int64(count), Int64(used)], fd: fd)
    }

    /// The answer for a frame whose images are the ones last written: their count and
    /// bytes (`last`, from that answer), marked unchanged.
    package static func unchanged(_ last: [Int64]) -> WorkerMessage {
        WorkerMessage(kind: .subtitleImages, numbers: [0] + last)
    }

    // MARK: The viewer's side

    /// The images an answer's table describes, in `map` (the worker's memfd, `size` bytes);
    /// nil when a number is out of bounds.
    static func parse(_ m: WorkerMessage, map: UnsafeRawPointer, size: Int) -> [Placed]? {
        guard m.kind == .subtitleImages, m.numbers.count >= 3, let count = Int(exactly: m.numbers[1]),
              (0...mostImages).contains(count), count * entry * 4 <= size else { return nil }
        var out: [Placed] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            let n = (0..<entry).map { map.loadUnaligned(fromByteOffset: (i * entry + $0) * 4, as: Int32.self) }
            let p = Placed(width: Int(n[0]), height: Int(n[1]), x: Int(n[2]), y: Int(n[3]), color: UInt32(bitPattern: n[4]),
                           offset: Int(n[5]))
            guard p.width > 0, p.height > 0, p.width <= 16384, p.height <= 16384, p.offset >= count * entry * 4,
                  p.offset <= size, p.width * p.height <= size - p.offset else { return nil }
            out.append(p)
        }
        return out
    }

    /// The viewer's mapping of the worker's memfd, read-only.
    final class Mapping {
        let base: UnsafeMutablePointer<UInt8>
        let size: Int

        /// Maps `fd` when its size is sealed against shrinking; nil otherwise.
        init?(fd: Int32) {
            var b: UnsafeMutablePointer<UInt8>?
            var s = 0
            guard cfs_map_slot(fd, &b, &s) == 0, let b else { return nil }
            base = b
            size = s
        }

        deinit { cfs_unmap_slot(base, size) }
    }
}
