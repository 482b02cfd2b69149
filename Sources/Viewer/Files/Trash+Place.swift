import Glibc
import Playback
import MediaCore

/// Which trash a file goes to, and the spelling the specification wants in `.trashinfo`.
extension Trash {
    /// A trash directory and the path recorded for the file (absolute for the home trash,
    /// relative to the volume's top for a volume's trash, so the volume can be mounted
    /// elsewhere).
    struct Place {
        let dir: String
        let recordedPath: String
    }

    func place(for absolute: String, device: dev_t) throws(Refusal) -> Place {
        if Self.makeFolders(homeTrash), Self.device(of: homeTrash) == device {
            // Files go where only the user can reach them: not into a folder a symbolic
            // link points at, nor one another user owns.
            guard Self.isPrivateFolder(homeTrash) else {
                throw Refusal(description: "cannot move \(absolute) to the trash: \(homeTrash) is not a folder of this user's own; the file stays")
            }
            return Place(dir: homeTrash, recordedPath: absolute)
        }
        let top = Self.topDirectory(of: absolute, device: device)
        let relative = String(absolute.dropFirst(top == "/" ? 1 : top.count + 1))
        let uid = getuid()
        // An administrator's shared .Trash counts only if it is a real, sticky directory.
        var st = stat()
        let shared = top + "/.Trash"
        if FileName.withCString(shared, { lstat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_mode & S_ISVTX != 0,
           Self.makeFolders(shared + "/\(uid)") {
            return Place(dir: shared + "/\(uid)", recordedPath: relative)
        }
        let own = top + "/.Trash-\(uid)"
        if Self.makeFolders(own), FileName.withCString(own, { lstat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == uid {
            return Place(dir: own, recordedPath: relative)
        }
        throw Refusal(description: "cannot move \(absolute) to the trash: its volume (\(top)) has no trash folder "
            + "and none can be made there (\(Self.errorText())); the file stays")
    }

    /// `dir` with `files/` and `info/` in it, made private when new; false if that fails or
    /// something that is not a directory is in the way.
    static func makeFolders(_ dir: String) -> Bool {
        var path = ""
        for part in dir.split(separator: "/") {
            path += "/" + part
            if FileName.withCString(path, { mkdir($0, 0o700) }) != 0 && errno != EEXIST { return false }
        }
        for sub in ["/files", "/info"] where FileName.withCString(dir + sub, { mkdir($0, 0o700) }) != 0 && errno != EEXIST {
            return false
        }
        var st = stat()
        return FileName.withCString(dir + "/files", { lstat($0, &st) }) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `dir`, its `files/` and `info/` are real directories (not symbolic links)
    /// owned by the user.
    static func isPrivateFolder(_ dir: String) -> Bool {
        [dir, dir + "/files", dir + "/info"].allSatisfy { path in
            var st = stat()
            return FileName.withCString(path, { lstat($0, &st) }) == 0 && (st.st_mode & S_IFMT) == S_IFDIR && st.st_uid == getuid()
        }
    }

    static func device(of path: String) -> dev_t? {
        var st = stat()
        return FileName.withCString(path, { stat($0, &st) }) == 0 ? st.st_dev : nil
    }

    /// The mount point holding `path`: the last parent still on the same device.
    static func topDirectory(of path: String, device: dev_t) -> String {
        var top = path
        while top != "/" {
            let parent = top.lastIndex(of: "/").map { $0 == top.startIndex ? "/" : String(top[..<$0]) } ?? "/"
            guard Self.device(of: parent) == device else { break }
            top = parent
        }
        return top
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = FileName.decode(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        return (cwd == "/" ? "" : cwd) + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    /// The file name at the end of a path.
    static func lastComponent(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// "photo.jpg" as "photo.2.jpg", "photo.3.jpg", ...: a second file of the same name.
    static func numbered(_ name: String, _ n: Int) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + ".\(n)" }
        return name[..<dot] + ".\(n)" + name[dot...]
    }

    /// Local time as YYYY-MM-DDThh:mm:ss, the specification's DeletionDate.
    static func deletionDate() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// The whole `.trashinfo` a file manager reads to list the file and put it back.
    public static func infoText(recordedPath: String, deletionDate: String) -> String {
        "[Trash Info]\nPath=\(uriEscaped(recordedPath))\nDeletionDate=\(deletionDate)\n"
    }

    /// A path escaped as in a URI (RFC 2396), slashes kept, as `Path=` needs: the name's
    /// own bytes, so that a Latin-1 `caf\xE9.png` is recorded as `caf%E9.png` and a file
    /// manager restores it under the name it had.
    static func uriEscaped(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in FileName.bytes(path) {
            let plain = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || "/-_.!~*'()".utf8.contains(b)
            if plain { out.append(b) } else { out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// rename(2) of two names as their bytes.
    static func rename(_ from: String, _ to: String) -> Int32 {
        FileName.withCString(from) { f in FileName.withCString(to) { t in Glibc.rename(f, t) } }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
