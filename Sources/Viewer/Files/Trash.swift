import Glibc
import Playback
import MediaCore

/// Moving files to the desktop's trash, as the freedesktop.org Trash specification says,
/// so a file manager lists them, can put them back, and empties them; nothing is ever
/// deleted here.
///
/// A file on the same file system as the home trash goes there; a file on another volume
/// goes to that volume's `.Trash/$UID` (when the administrator made `.Trash` sticky) or
/// `.Trash-$UID`, since moving it home would mean copying it across devices. A volume
/// where neither exists nor can be made is refused, and the file stays where it is.
public struct Trash: Sendable {
    /// The home trash, `$XDG_DATA_HOME/Trash` (the program works it out; the library reads
    /// no environment).
    public var homeTrash: String

    /// A trash whose home trash is `homeTrash`.
    public init(homeTrash: String) {
        self.homeTrash = homeTrash
    }

    /// `~/.local/share/Trash` of the user running the program, from the password
    /// database: the specification's default when `$XDG_DATA_HOME` is not set.
    public static var defaultHomeTrash: String {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/tmp/Trash-\(getuid())" }
        return String(cString: dir) + "/.local/share/Trash"
    }

    /// A file in the trash: where it was, where it is now, and its `.trashinfo`.
    public struct Item: Sendable, Equatable {
        /// The absolute path it had.
        public var originalPath: String
        /// Where it is, under the trash's `files/`.
        public var trashedPath: String
        /// Its `info/NAME.trashinfo`.
        public var infoPath: String
        /// The file that was moved (device, inode, type), so that undo brings back that
        /// file and not whatever took its place in the trash since.
        var moved: FileIdentity? = nil
    }

    /// Which file a path named when it was trashed.
    struct FileIdentity: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64
        let type: UInt32

        /// The file at `path` itself (a symbolic link is not followed); nil if none.
        init?(of path: String) {
            var st = stat()
            guard FileName.withCString(path, { lstat($0, &st) }) == 0 else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            type = UInt32(st.st_mode & S_IFMT)
        }
    }

    /// Why a file was not moved or brought back, in one line that ends by saying the file
    /// stays where it is.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line.
        public let description: String
    }

    /// Moves the file at `path` into the trash; on any failure nothing has moved.
    public func moveToTrash(path: String) throws(Refusal) -> Item {
        let absolute = Self.absolute(path)
        var st = stat()
        let shown = FileName.display(absolute)
        guard FileName.withCString(absolute, { lstat($0, &st) }) == 0 else {
            throw Refusal(description: "cannot move \(shown) to the trash: \(Self.errorText())")
        }
        let target = try place(for: absolute, device: st.st_dev)
        let name = Self.lastComponent(absolute)
        let date = Self.deletionDate()
        // The .trashinfo is made first, with O_EXCL: its name claims the name in files/.
        for attempt in 1...10_000 {
            let trashedName = attempt == 1 ? name : Self.numbered(name, attempt)
            let info = target.dir + "/info/" + trashedName + ".trashinfo"
            let fd = FileName.withCString(info) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            if fd < 0 {
                if errno == EEXIST { continue }
                throw Refusal(description: "cannot move \(shown) to the trash: \(FileName.display(info)): \(Self.errorText()); the file stays")
            }
            let text = Self.infoText(recordedPath: target.recordedPath, deletionDate: date)
            let wrote = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
            let files = target.dir + "/files/" + trashedName
            guard wrote == text.utf8.count, FileName.withCString(files, { access($0, F_OK) }) != 0 else {
                FileName.withCString(info) { _ = unlink($0) }
                if wrote == text.utf8.count { continue }
                throw Refusal(description: "cannot move \(shown) to the trash: cannot write \(FileName.display(info)); the file stays")
            }
            guard Self.rename(absolute, files) == 0 else {
                let why = Self.errorText()
                FileName.withCString(info) { _ = unlink($0) }
                throw Refusal(description: "cannot move \(shown) to the trash: \(why); the file stays")
            }
            return Item(originalPath: absolute, trashedPath: files, infoPath: info, moved: FileIdentity(of: files))
        }
        throw Refusal(description: "cannot move \(shown) to the trash: too many files of that name there; the file stays")
    }

    /// Puts a trashed file back where it was, unless something else is there now.
    ///
    /// Only the file that was moved comes back: one put in its place in the trash (a
    /// symbolic link to somewhere else, say) stays there.
    public func restore(_ item: Item) throws(Refusal) {
        let shown = FileName.display(item.originalPath)
        guard let moved = item.moved, FileIdentity(of: item.trashedPath) == moved else {
            throw Refusal(description: "cannot bring back \(shown): the file in the trash is not the one moved there; it stays in the trash")
        }
        guard FileName.withCString(item.originalPath, { access($0, F_OK) }) != 0 else {
            throw Refusal(description: "cannot bring back \(shown): another file has that name now; it stays in the trash")
        }
        guard Self.rename(item.trashedPath, item.originalPath) == 0 else {
            throw Refusal(description: "cannot bring back \(shown): \(Self.errorText()); it stays in the trash")
        }
        FileName.withCString(item.infoPath) { _ = unlink($0) }
    }
}
