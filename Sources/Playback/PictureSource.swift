import CFFmpeg
import FoundationEssentials
import Glibc

/// A picture decoded by its own library rather than FFmpeg: AVIF (libavif), HEIC
/// (libheif), animated JPEG XL (libjxl), SVG (librsvg) and animated WebP (libwebp).
///
/// Each hands the player RGBA or BGRA AVFrames with start times and durations, as FFmpeg's
/// decoders would, so everything after the decoder stays the same; a still is one frame,
/// an animation several and loops by `rewind()`.
protocol PictureSource: AnyObject {
    /// What the picture is: a still (`.image`) or an animation, its shown size and rotation.
    var info: MediaInfo { get }
    /// The next frame with its start and duration in seconds; nil after the last.
    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)?
    /// Back to the first frame (a loop).
    func rewind()
}

/// The formats that are decoded outside FFmpeg, told apart by their first bytes.
enum PictureFormat: Equatable {
    case avif, heif, jxl, svg, animatedWebP

    /// How many first bytes `sniff` looks at.
    static let headSize = 1024

    /// The format of a file starting with `head` and called `name`; nil for anything FFmpeg
    /// opens as before.
    static func sniff(_ head: [UInt8], name: String) -> PictureFormat? {
        if let brand = isoBrand(head) { return brand }
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return .jxl }
        if WebPAnimation.isAnimated(head) { return .animatedWebP }
        let lower = name.lowercased()
        if lower.hasSuffix(".svgz"), head.starts(with: [0x1F, 0x8B]) { return .svg }
        if looksLikeSVG(head) { return .svg }
        return nil
    }

    /// AVIF or HEIF from the ISO file-type box: its major brand, then its compatible ones
    /// (an AVIF often says `mif1` first and `avif` among the rest).
    private static func isoBrand(_ h: [UInt8]) -> PictureFormat? {
        guard h.count >= 16, h[4..<8].elementsEqual(Array("ftyp".utf8)) else { return nil }
        let size = min(h.count, Int(h[0]) << 24 | Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3]))
        var brands: [String] = [String(decoding: h[8..<12], as: UTF8.self)]
        var i = 16
        while i + 4 <= size {
            brands.append(String(decoding: h[i..<i + 4], as: UTF8.self))
            i += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        if heif.contains(brands[0]) || brands.contains(where: { $0 == "heic" || $0 == "heix" }) { return .heif }
        return nil
    }

    /// XML text whose first element is `<svg`: after an optional BOM, whitespace, an XML
    /// declaration, comments and a doctype.
    static func looksLikeSVG(_ h: [UInt8]) -> Bool {
        var text = String(decoding: h, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.drop(while: { $0.isWhitespace })
        guard trimmed.hasPrefix("<") else { return false }
        var rest = Substring(trimmed)
        while let open = rest.firstIndex(of: "<") {
            let tail = rest[open...]
            if tail.hasPrefix("<svg") { return true }
            if tail.hasPrefix("<?") || tail.hasPrefix("<!") {
                guard let close = tail.firstIndex(of: ">") else { return false }
                rest = tail[tail.index(after: close)...]
                continue
            }
            return false
        }
        return false
    }

    /// Web addresses whose pictures are fetched whole into memory and sniffed: the formats
    /// above need the whole file, and so does any still before it shows.
    static func fetchesWhole(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1)[0].split(separator: "#", maxSplits: 1)[0].lowercased()
        return [".webp", ".avif", ".heic", ".heif", ".jxl", ".svg", ".svgz"].contains(where: { path.hasSuffix($0) })
    }

    /// The largest picture file read whole: far above any real photo, far below memory.
    static let largestFile = 256 << 20
}

/// Opening a `PictureSource` from a file or from bytes.
enum PictureSources {
    /// The decoder for `bytes` (a whole file named `name`), or nil when FFmpeg should have it.
    static func open(_ bytes: [UInt8], name: String, options: PlayerOptions,
                     colour: PictureColour) throws(AVError) -> PictureSource? {
        guard let format = PictureFormat.sniff(Array(bytes.prefix(PictureFormat.headSize)), name: name) else { return nil }
        let maxPixels = options.source.maxPixels
        switch format {
        case .avif: return try AVIFPicture(bytes: bytes, name: name, maxPixels: maxPixels, colour: colour)
        case .heif: return try HEIFPicture(bytes: bytes, name: name, maxPixels: maxPixels, colour: colour)
        case .jxl: return try JXLAnimation.openIfAnimated(bytes, name: name, maxPixels: maxPixels, colour: colour)
        case .svg: return try SVGPicture(bytes: bytes, name: name, maxPixels: maxPixels, target: options.targetSize,
                                         colour: colour)
        case .animatedWebP: return try WebPAnimation(bytes: Data(bytes), name: name, maxPixels: maxPixels)
        }
    }

    /// The decoder for a local `file:` URL, or nil (not a local file, or not one of ours),
    /// reading only the first bytes of files that are not.
    static func open(file url: String, options: PlayerOptions, colour: PictureColour) throws(AVError) -> PictureSource? {
        guard url.hasPrefix("file:") else { return nil }
        let path = String(url.dropFirst(5))
        let name = Demuxer.displayName(path)
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: PictureFormat.headSize)
        let got = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard got > 0, PictureFormat.sniff(Array(head[0..<got]), name: name) != nil else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        guard Int(st.st_size) <= PictureFormat.largestFile else {
            throw AVError(message: "\(name): the picture file is \(st.st_size >> 20) MiB, more than the "
                          + "\(PictureFormat.largestFile >> 20) MiB read whole")
        }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        bytes.removeLast(bytes.count - filled)
        return try open(bytes, name: name, options: options, colour: colour)
    }

    /// A new RGBA (or BGRA) frame of `width` x `height`, or nil without memory.
    static func frame(width: Int, height: Int, format: AVPixelFormat = AV_PIX_FMT_RGBA) -> Frame? {
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = format.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        guard av_frame_get_buffer(f, 0) >= 0, f.pointee.data.0 != nil else { return nil }
        f.pointee.key_frame = 1
        return frame
    }

    /// The refusal of a picture over the pixel budget, in the words every decoder uses.
    static func tooLarge(_ name: String, _ w: Int, _ h: Int, _ maxPixels: Int) -> AVError {
        AVError(message: "\(name): picture is \(w)x\(h), over the limit of \(maxPixels) pixels (raise it with --max-pixels)")
    }

    /// A library's message as part of our one line: its newlines (libheif and GLib end
    /// theirs with one) become spaces, and the ends are trimmed.
    static func oneLine(_ text: String) -> String {
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        return String(flat.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    /// Browsers' rule for tiny frame delays in animations (as for GIFs): 10 ms or less is 100 ms.
    static func animationDelay(_ seconds: Double) -> Double {
        seconds.isFinite && seconds > 0.01 ? seconds : 0.1
    }
}
