import Glibc
import MediaCore
import Playback

/// The media files of a folder, in the order a person browsing photos expects.
///
/// Image viewers are opened on folders: `mediaview ~/Pictures` queues the folder's
/// pictures, videos and sound in natural order ("img2" before "img10"). Hidden files and
/// files that are not media are left out and counted, so a script can tell "empty" from
/// "nothing I could show". Names are read with one pass of readdir(3) and nothing else
/// for name orders, so a folder of 100,000 files lists in a fraction of a second; only
/// the orders that need them stat (time, size) or open (EXIF date) each file.
///
/// Media are recognised by extension, since opening every file of a large folder would
/// be slow; a file whose extension says nothing (a camera's `IMG_0001`, a renamed
/// download) is recognised by its first bytes instead (`MediaSniffer`).
public struct FolderListing: Sendable {
    /// How the files are ordered.
    public enum Order: String, Sendable, CaseIterable {
        /// Byte order of the names, as `LC_ALL=C ls` lists them.
        case name
        /// Numbers in names compare as numbers, letters without case: "img2" before "img10".
        case natural
        /// Oldest modification first.
        case mtime
        /// Smallest first.
        case size
        /// Shuffled, different on every listing.
        case random
        /// When the photo was taken (EXIF DateTimeOriginal); files without it use their
        /// modification time.
        case exifDate = "exif-date"
    }

    /// How the files are ordered; natural by default.
    public var order: Order
    /// Newest, largest or last first instead.
    public var reversed: Bool
    /// Descends into subfolders (each real folder once, however many links lead to it).
    public var recursive: Bool

    /// A listing with these choices.
    public init(order: Order = .natural, reversed: Bool = false, recursive: Bool = false) {
        self.order = order
        self.reversed = reversed
        self.recursive = recursive
    }

    /// What a listing found.
    public struct Result: Sendable {
        /// Paths of the media files, in order.
        public var files: [String] = []
        /// Hidden files and folders (names starting with a dot) left out.
        public var skippedHidden = 0
        /// Files left out because they are not media.
        public var skippedOther = 0
        /// One line for each folder or file that could not be read; the rest was listed.
        public var problems: [String] = []
        /// Where the file the listing was asked to include sits in `files`.
        public var startIndex = 0
    }

    /// The media files of `folder` (and of its subfolders when `recursive`), in order.
    public func list(folder: String) -> Result {
        var walk = Walk()
        walk.visit(folder: folder, relative: "", recursive: recursive)
        return finish(walk)
    }

    /// The media files of the folder holding `file`, with `file` among them even when it
    /// is hidden or not recognised as media (it was asked for by name), and `startIndex`
    /// saying where it is: what "open one, browse all" queues.
    public func list(around file: String) -> Result {
        let slash = file.lastIndex(of: "/")
        let folder = slash.map { $0 == file.startIndex ? "/" : String(file[..<$0]) } ?? "."
        let name = slash.map { String(file[file.index(after: $0)...]) } ?? file
        var walk = Walk()
        walk.visit(folder: folder, relative: "", recursive: false)
        if !walk.found.contains(where: { $0.relative == name }) {
            walk.found.append(Walk.Entry(relative: name, path: file))
        }
        var result = finish(walk)
        if slash == nil {
            // A bare file name: its neighbours are spelt the same way, without "./".
            result.files = result.files.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
        }
        let wanted = slash == nil ? name : folder == "/" ? "/" + name : folder + "/" + name
        result.startIndex = result.files.firstIndex(of: wanted) ?? result.files.firstIndex(of: file) ?? 0
        return result
    }

    private func finish(_ walk: Walk) -> Result {
        var result = Result()
        result.skippedHidden = walk.skippedHidden
        result.skippedOther = walk.skippedOther
        result.problems = walk.problems
        result.files = sorted(walk.found).map(\.path)
        if reversed { result.files.reverse() }
        return result
    }
}

extension FolderListing {
    /// A depth-first walk that remembers the folders it has been in.
    struct Walk {
        struct Entry {
            /// The path below the listed folder, which name orders compare.
            var relative: String
            var path: String
        }

        var found: [Entry] = []
        var skippedHidden = 0
        var skippedOther = 0
        var problems: [String] = []
        /// Device and inode of every folder entered: a symlink loop leads back to one of
        /// them and is not followed again.
        private var entered: Set<FileID> = []
        /// The listed folder's real path: a link to a folder outside it (`/`, a home) is
        /// not followed, or `-r` on a folder holding one walks the whole file system.
        private var root: String?

        struct FileID: Hashable {
            let device: UInt
            let inode: UInt
        }

        mutating func visit(folder: String, relative: String, recursive: Bool) {
            var st = stat()
            guard FileName.withCString(folder, { stat($0, &st) }) == 0 else {
                problems.append("folder \(folder): cannot read it (\(String(cString: strerror(errno))))")
                return
            }
            guard entered.insert(FileID(device: UInt(st.st_dev), inode: UInt(st.st_ino))).inserted else { return }
            if root == nil { root = Self.realPath(folder) }
            guard let dir = FileName.withCString(folder, { opendir($0) }) else {
                problems.append("folder \(folder): cannot read it (\(String(cString: strerror(errno))))")
                return
            }
            // Real folders go before links to folders, so a folder reached both ways is
            // listed under its own name.
            var subfolders: [(path: String, relative: String, isLink: Bool)] = []
            let base = folder.hasSuffix("/") ? folder : folder + "/"
            while let entry = readdir(dir) {
                // The name's bytes, whatever they are: a Latin-1 name opens as it is named.
                // Read as the C string it is (always terminated): byte by byte through a
                // generic slice cost seconds for a million names.
                let name = FileName.decode(entry: entry)
                if name == "." || name == ".." { continue }
                if name.hasPrefix(".") { skippedHidden += 1; continue }
                let path = base + name
                let rel = relative.isEmpty ? name : relative + "/" + name
                var type = entry.pointee.d_type
                let isLink = type == UInt8(DT_LNK)
                if isLink || type == UInt8(DT_UNKNOWN) {
                    // A link counts as what it points to; a dangling one as a file, which
                    // then fails in the queue with its own line.
                    var target = stat()
                    type = FileName.withCString(path, { stat($0, &target) }) == 0 && (target.st_mode & S_IFMT) == S_IFDIR ? UInt8(DT_DIR) : UInt8(DT_REG)
                }
                if type == UInt8(DT_DIR) {
                    if recursive { subfolders.append((path, rel, isLink)) } else { skippedOther += 1 }
                } else if MediaSniffer.isMedia(path: path, name: name) {
                    found.append(Entry(relative: rel, path: path))
                } else {
                    skippedOther += 1
                }
            }
            closedir(dir)
            for f in subfolders where !f.isLink { visit(folder: f.path, relative: f.relative, recursive: true) }
            for f in subfolders where f.isLink {
                guard let r = root, let target = Self.realPath(f.path), target == r || target.hasPrefix(r == "/" ? "/" : r + "/") else {
                    skippedOther += 1
                    continue
                }
                visit(folder: f.path, relative: f.relative, recursive: true)
            }
        }

        /// Where `path` really is, links resolved; nil when it cannot be resolved.
        static func realPath(_ path: String) -> String? {
            guard let p = FileName.withCString(path, { realpath($0, nil) }) else { return nil }
            defer { free(p) }
            return FileName.decode(cString: p)
        }
    }
}
