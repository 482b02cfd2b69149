import Glibc
import MediaCore

/// A local file read whole when its first bytes say JPEG or PNG: the worker never opens files.
enum StillFile {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The file's bytes, or nil when it cannot be opened or is not a JPEG or PNG (the
    /// usual path then reports or plays it); throws when it is too large to read whole.
    static func read(_ path: String, name: String) throws(AVError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        var head = [UInt8](repeating: 0, count: 8)
        let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 8, 0) }
        guard got >= 3, head.starts(with: jpeg) || (got == 8 && head == png) else { return nil }
        guard Int(st.st_size) <= PictureFormat.largestFile else {
            throw AVError(message: "\(name): the picture file is \(st.st_size >> 20) MiB, more than the "
                          + "\(PictureFormat.largestFile >> 20) MiB read whole")
        }
        return WholeFile.read(fd, size: Int(st.st_size))
    }
}
