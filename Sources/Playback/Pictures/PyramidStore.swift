import CRows
import Glibc
import MediaCore

/// The file a picture's tile pyramid is written to: unnamed from the start (or unlinked at
/// once where the file system cannot make unnamed files), so it is gone when the picture
/// is, even after a crash, and no other program can open it.
package enum PyramidStore {
    /// A new empty store in the first of `directory` (nil: none), `/var/tmp` and `/tmp` that
    /// takes one; throws the one line when none does.
    package static func create(in directory: String?) throws(AVError) -> Int32 {
        var last = ""
        // /var/tmp before /tmp: /tmp is often memory, and a pyramid is hundreds of MB.
        for dir in [directory, "/var/tmp", "/tmp"].compactMap({ $0 }) where !dir.isEmpty {
            let fd = FileName.withCString(dir) { crows_unnamed_file($0) }
            if fd >= 0 { return fd }
            last = "\(dir): \(String(cString: strerror(errno)))"
        }
        throw AVError(message: "no directory takes the zoom's tiles (\(last))")
    }
}
