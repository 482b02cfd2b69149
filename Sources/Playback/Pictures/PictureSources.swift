import CFFmpeg
import FoundationEssentials
import Glibc
import MediaCore
import Web

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
        let name = SourceOptions.displayName(path)
        let fd = FileName.withCString(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
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
        let bytes = WholeFile.read(fd, size: Int(st.st_size))
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
