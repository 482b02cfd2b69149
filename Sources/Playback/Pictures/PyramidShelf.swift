import Glibc
import Synchronization

/// Tile pyramids written by the pass that showed a large PNG or TIFF fitted, kept until the
/// zoom of that picture takes them.
///
/// The fitted picture and the zoom's tiles are made by different parts at different times:
/// the player decodes the picture when it opens, the view asks for tiles only once the user
/// zooms. The shelf lets the one pass over the file serve both. A pyramid is found by the
/// file it was built from (device, inode, size and change time), so a file replaced since is
/// read again; only the latest few are kept, since each holds a store on disk about five
/// bytes a pixel.
package final class PyramidShelf: Sendable {
    /// The one shelf of the process: the player puts, the view's tiles take.
    package static let shared = PyramidShelf()

    /// Pyramids kept at once: the item on screen and the one before it.
    static let capacity = 2

    /// What identifies a file's contents for as long as it is not changed.
    struct FileIdentity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, changed: Int64, changedNanos: Int64

        init?(fd: Int32) {
            var st = stat()
            guard fstat(fd, &st) == 0 else { return nil }
            (device, inode, size) = (UInt64(st.st_dev), UInt64(st.st_ino), Int64(st.st_size))
            (changed, changedNanos) = (Int64(st.st_ctim.tv_sec), Int64(st.st_ctim.tv_nsec))
        }
    }

    private struct Entry {
        var file: FileIdentity
        var store: Int32
        var layout: PyramidLayout
    }

    private let entries = Mutex<[Entry]>([])

    deinit { entries.withLock { $0.forEach { close($0.store) } } }

    /// Keeps `store` (now the shelf's) as the pyramid of the file behind `file`, laid out as
    /// `layout`; the oldest goes when the shelf is full.
    package func put(file: Int32, store: Int32, layout: PyramidLayout) {
        guard let id = FileIdentity(fd: file) else { close(store); return }
        let dropped: [Int32] = entries.withLock { list in
            var gone = list.filter { $0.file == id }.map(\.store)
            list.removeAll { $0.file == id }
            list.append(Entry(file: id, store: store, layout: layout))
            while list.count > Self.capacity { gone.append(list.removeFirst().store) }
            return gone
        }
        dropped.forEach { close($0) }
    }

    /// The pyramid of the file behind `file`, given to the caller (who closes its store);
    /// nil when none was kept for it as it is now.
    package func take(file: Int32) -> (store: Int32, layout: PyramidLayout)? {
        guard let id = FileIdentity(fd: file) else { return nil }
        return entries.withLock { list in
            guard let i = list.firstIndex(where: { $0.file == id }) else { return nil }
            let e = list.remove(at: i)
            return (e.store, e.layout)
        }
    }
}
