import Glibc
import MediaCore

/// The TIFF structure of a JPEG's first APP1 "Exif" segment, found by walking the file's
/// segment headers and reading that one segment's body, not the file.
///
/// Sorting a folder by date taken reads this from every file in it, photos the user never
/// opened included (a downloads folder, a camera card): so it reads a few headers and at
/// most 64 KiB per file, only from regular files, and never waits on one (a FIFO or a
/// device among the photos would otherwise hold the sort for good).
enum ExifSegment {
    /// The segments walked before giving up: a camera's photo has its EXIF within the
    /// first few (JFIF, then Exif, at most an ICC profile or XMP before it).
    static let maxSegments = 64

    /// The TIFF bytes and where they start, from a reader of `count` bytes at an offset of
    /// the JPEG (fewer at its end); nil when there is no Exif APP1 before the picture data.
    static func tiff(reading read: (_ offset: Int, _ count: Int) -> [UInt8]) -> (bytes: [UInt8], offset: Int)? {
        guard read(0, 2) == [0xFF, 0xD8] else { return nil }
        var at = 2
        for _ in 0..<maxSegments {
            let h = read(at, 4)
            guard h.count == 4, h[0] == 0xFF else { return nil }
            let marker = h[1]
            if marker == 0xFF { at += 1; continue }  // fill byte before a marker
            if marker == 0xD9 || marker == 0xDA { return nil }  // end, or the picture data
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }  // no length
            let length = Int(h[2]) << 8 | Int(h[3])
            guard length >= 2 else { return nil }
            if marker == 0xE1, length >= 2 + 6 + 8 {
                let body = read(at + 4, length - 2)
                guard body.count == length - 2 else { return nil }
                if body.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) {  // "Exif\0\0"
                    return (Array(body.dropFirst(6)), at + 4 + 6)
                }
            }
            at += 2 + length
        }
        return nil
    }

    /// The TIFF bytes of the JPEG in `bytes` (or of its first part).
    static func tiff(ofJPEG bytes: [UInt8]) -> (bytes: [UInt8], offset: Int)? {
        tiff { offset, count in
            guard offset < bytes.count else { return [] }
            return Array(bytes[offset..<(offset + min(count, bytes.count - offset))])
        }
    }

    /// The TIFF bytes of the file at `path`, nil for anything but a regular file (opened
    /// without waiting, so a FIFO cannot block) or one without EXIF.
    static func tiff(ofFileAt path: String) -> (bytes: [UInt8], offset: Int)? {
        let fd = FileName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return tiff { offset, count in readFully(fd, at: offset, count: count) }
    }

    /// Up to `count` bytes at `offset` of the file; fewer at its end or on an error.
    private static func readFully(_ fd: Int32, at offset: Int, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = out.withUnsafeMutableBytes { b in
                b.baseAddress.map { pread(fd, $0 + got, count - got, off_t(offset + got)) } ?? 0
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            got += n
        }
        return Array(out.prefix(got))
    }
}
