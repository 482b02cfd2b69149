import Glibc

extension RGBAImage {
    /// A picture the program ships as raw straight-alpha R, G, B, A bytes of a known size
    /// (its window icons), read without any decoder: nil unless the file holds exactly
    /// `width * height * 4` bytes.
    ///
    /// The viewer sets its window's icon at every start; reading PNGs there would load libpng
    /// into the process that the sandbox keeps free of picture libraries.
    public init?(rgbaFile path: String, width: Int, height: Int) {
        guard width > 0, height > 0, width <= 1024, height <= 1024 else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let count = width * height * 4
        // One byte more than expected, so a longer file is told apart from a whole one.
        var bytes = [UInt8](repeating: 0, count: count + 1)
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        guard filled == count else { return nil }
        bytes.removeLast()
        self.init(width: width, height: height, pixels: bytes)
    }
}
