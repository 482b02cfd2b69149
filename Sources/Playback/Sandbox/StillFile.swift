import Glibc
import MediaCore

/// A still read whole when its first bytes say it is a picture the worker decodes: the
/// worker never opens files.
enum StillFile {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The file's bytes, or nil when it cannot be opened or is not a still the worker takes
    /// (the usual path then reports or plays it); throws when it is too large to read whole.
    static func read(_ path: String, name: String) throws(AVError) -> [UInt8]? {
        try read(path, name: name, if: { isStill($0, name: name) })
    }

    /// The file's bytes when its first bytes pass `wanted`, as `read` reads a still.
    static func read(_ path: String, name: String, if wanted: ([UInt8]) -> Bool) throws(AVError) -> [UInt8]? {
        guard let file = openRegular(path) else { return nil }
        defer { close(file.fd) }
        guard wanted(file.head) else { return nil }
        guard file.size <= PictureFormat.largestFile else {
            throw AVError(message: "\(name): the picture file is \(file.size >> 20) MiB, more than the "
                          + "\(PictureFormat.largestFile >> 20) MiB read whole")
        }
        return WholeFile.read(file.fd, size: file.size)
    }

    /// A regular file that is not empty, opened for reading, with its size and first bytes
    /// (up to `PictureFormat.headSize`); nil for anything else. Opened without blocking, so
    /// a pipe named like a picture cannot hold the caller. The caller closes `fd`.
    static func openRegular(_ path: String) -> (fd: Int32, size: Int, head: [UInt8])? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        var head = [UInt8](repeating: 0, count: PictureFormat.headSize)
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
              case let got = head.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, $0.count, 0) }), got > 0 else {
            close(fd)
            return nil
        }
        return (fd, Int(st.st_size), Array(head[0..<got]))
    }

    /// Whether a file starting with `head` (up to `PictureFormat.headSize` bytes) is a
    /// picture the worker decodes: a JPEG, a PNG that does not move, AVIF, HEIC, JPEG XL,
    /// SVG, a WebP that does not move, or one of the still formats FFmpeg reads.
    /// GIF, APNG and animated WebP stay with the player (they play as video); an AVIF or
    /// JPEG XL with frames is sent back by the worker.
    static func isStill(_ head: [UInt8], name: String) -> Bool {
        if head.starts(with: jpeg) { return true }
        if head.starts(with: png) { return !isAPNG(head) }
        if let format = PictureFormat.sniff(head, name: name) { return format != .animatedWebP }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual(Array("WEBP".utf8)) {
            return true
        }
        return ffmpegStills.contains { head.starts(with: $0) } || isPNM(head)
    }

    /// First bytes of the still formats FFmpeg reads from memory: TIFF (both byte orders),
    /// BMP, QOI, Photoshop, DirectDraw, OpenEXR, Radiance HDR, JPEG 2000 (boxed and bare).
    private static let ffmpegStills: [[UInt8]] = [
        [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], Array("BM".utf8), Array("qoif".utf8),
        Array("8BPS".utf8), Array("DDS ".utf8), [0x76, 0x2F, 0x31, 0x01], Array("#?RADIANCE".utf8),
        Array("#?RGBE".utf8), [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20], [0xFF, 0x4F, 0xFF, 0x51],
    ]

    /// Whether a file starting with `head` is an animation a worker plays frame by frame:
    /// a GIF, an APNG or an animated WebP. (An AVIF or JPEG XL with frames is known only
    /// once a worker has read it, and is sent back as moving.)
    static func isAnimation(_ head: [UInt8]) -> Bool {
        head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8))
            || (head.starts(with: png) && isAPNG(head)) || WebPAnimation.isAnimated(head)
    }

    /// Netpbm: `P1` to `P7` then whitespace.
    private static func isPNM(_ h: [UInt8]) -> Bool {
        h.count >= 3 && h[0] == 0x50 && (0x31...0x37).contains(h[1]) && [0x20, 0x0A, 0x0D, 0x09].contains(h[2])
    }

    /// A PNG with an animation control chunk before its first image data: an APNG, which the
    /// player plays. Only chunk lengths and names are read, never their contents.
    static func isAPNG(_ h: [UInt8]) -> Bool {
        var i = png.count
        while i + 8 <= h.count {
            let length = Int(h[i]) << 24 | Int(h[i + 1]) << 16 | Int(h[i + 2]) << 8 | Int(h[i + 3])
            let type = String(decoding: h[i + 4..<i + 8], as: UTF8.self)
            if type == "acTL" { return true }
            if type == "IDAT" { return false }
            i += 12 + length
        }
        return false
    }
}

extension StillFile {
    /// Whether the path of web address `url` ends in a still picture's extension (the
    /// formats `isStill` takes; GIF and APNG play as video and are not among them).
    static func namesStill(_ url: String) -> Bool {
        stillExtensions.contains(pathExtension(url))
    }

    /// Whether the path of web address `url` ends in an animation's extension (GIF, APNG):
    /// fetched whole for a worker to play, as a still is.
    static func namesAnimation(_ url: String) -> Bool {
        ["gif", "apng"].contains(pathExtension(url))
    }

    /// Whether the path of web address `url` ends in a JPEG extension: the format shown
    /// while it downloads, even with the sandbox off.
    static func namesJPEG(_ url: String) -> Bool {
        ["jpg", "jpeg", "jpe", "jfif"].contains(pathExtension(url))
    }

    /// The lowercased extension of the path of `url` (query and fragment aside); "" for none.
    static func pathExtension(_ url: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first?.split(separator: "#", maxSplits: 1).first?.lowercased() ?? ""
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return String(path[path.index(after: dot)...])
    }

    private static let stillExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "webp", "avif", "heic", "heif", "jxl", "svg", "svgz", "tif", "tiff",
        "bmp", "qoi", "psd", "dds", "exr", "hdr", "jp2", "j2k", "pbm", "pgm", "ppm", "pnm", "pam",
    ]
}
