import CFFmpeg
import FoundationEssentials
import Glibc
import MediaCore
import Web

/// The decode a worker does for one still: the whole file's bytes to a picture in the
/// display's colours, as the player would have shown it decoded in-process.
///
/// JPEG goes to libjpeg-turbo, scaled down in the DCT domain for the target size and turned
/// by its EXIF orientation; AVIF, HEIC and SVG to their own libraries (`StillWork+Formats`);
/// every other still to FFmpeg. All come out as BGR0 or RGBA.
public enum StillWork {
    /// A decoded still and what the viewer needs to show it.
    public struct Result {
        /// BGR0 or RGBA, at the size decoded (before rotation).
        let frame: Frame
        /// Clockwise degrees to turn it (a JPEG's EXIF orientation).
        public let rotation: Int
        /// The size stored in the file, before any reduced-size decode.
        let stored: (width: Int, height: Int)
        /// FFmpeg's names for the container and codec, for the info panel.
        public let formatName: String
        public let codec: String
        /// A drawing (SVG): the viewer draws it again, sharper, when it is zoomed.
        public var isScalable = false
        /// How many rows from the top are the picture's own, for a file still arriving
        /// (`decodeSoFar`); nil for a whole file.
        public var rowsPresent: Int?
        /// A PNG or TIFF over the budget whose zoom tiles the same pass wrote to the store
        /// it was given.
        public var tilesStored = false
    }

    /// Decodes `bytes` (named `name` in messages) for a window of `target`, within `maxPixels`;
    /// an animation is refused (the worker's own answer for one is `decoded`'s `.moving`).
    public static func decode(_ bytes: [UInt8], name: String, target: (width: Int, height: Int)?, maxPixels: Int,
                              displayProfile: [UInt8]?) throws(AVError) -> Result {
        switch try decoded(bytes, name: name, target: target, maxPixels: maxPixels, displayProfile: displayProfile) {
        case .still(let r): return r
        case .moving: throw AVError(message: "\(name): an animation, played by the player")
        }
    }

    /// A JPEG through libjpeg-turbo, anything else through FFmpeg.
    static func jpegOrFFmpeg(_ bytes: [UInt8], name: String, target: (width: Int, height: Int)?, maxPixels: Int,
                             colour: PictureColour) throws(AVError) -> Result {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            do {
                return try raw(bytes) { r throws(AVError) in
                    try jpeg(r, name: name, target: target, maxPixels: maxPixels, colour: colour)
                }
            } catch where !JPEGStill.isFinal(error.code) {
                // What libjpeg declines (CMYK, YCCK, 12-bit, damage) FFmpeg shows, as in the player.
            }
        }
        // A PNG or TIFF over the budget (from the web: a local one never comes here) is read a
        // few rows at a time; FFmpeg would decode it whole before it could be refused.
        if RowReader.Format(head: Array(bytes.prefix(8))) != nil, let stored = LargePictureHeader.size(bytes: bytes),
           stored.width * stored.height > maxPixels {
            guard let fd = bytes.withUnsafeBytes({ SealedBytes.make([$0], name: "mediaview-large") }) else {
                throw AVError(code: cff_averror(ENOMEM), message: "\(name): out of memory")
            }
            defer { close(fd) }
            let large = try LargeStill.decode(fd: fd, name: name, target: target, maxPixels: maxPixels)
            return Result(frame: colour.manage(large.frame), rotation: 0, stored: large.stored,
                          formatName: large.formatName, codec: large.codec)
        }
        return try ffmpeg(bytes, name: name, maxPixels: maxPixels, colour: colour)
    }

    /// What a JPEG worker says of a picture it has no library for: not a JPEG, or one
    /// libjpeg declines. The viewer then asks a photos worker, which has FFmpeg.
    public static let needsFFmpegCode = cff_averror(ENOSYS)

    /// A JPEG through libjpeg-turbo alone, for a worker without FFmpeg: as `decode` for a
    /// JPEG libjpeg reads, else a failure with `needsFFmpegCode`. A truncated file or one
    /// over the budget fails as it would anywhere: FFmpeg would say no more.
    public static func decodeJPEG(_ bytes: [UInt8], name: String, target: (width: Int, height: Int)?, maxPixels: Int,
                                  displayProfile: [UInt8]?) throws(AVError) -> Result {
        try raw(bytes) { r throws(AVError) in
            try decodeJPEG(r, name: name, target: target, maxPixels: maxPixels, displayProfile: displayProfile)
        }
    }

    /// `body` on the bytes of `bytes`, with its typed error (`withUnsafeBytes` rethrows untyped).
    static func raw<T>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(AVError) -> T) throws(AVError) -> T {
        var outcome: Swift.Result<T, AVError>?
        bytes.withUnsafeBytes { r in outcome = Swift.Result { () throws(AVError) -> T in try body(r) } }
        return try outcome!.get()
    }

    /// `decodeJPEG` of bytes held elsewhere: a worker reads the request's memfd where it is
    /// mapped, rather than copying the file first.
    public static func decodeJPEG(_ bytes: UnsafeRawBufferPointer, name: String, target: (width: Int, height: Int)?,
                                  maxPixels: Int, displayProfile: [UInt8]?) throws(AVError) -> Result {
        guard bytes.starts(with: StillFile.jpeg) else {
            throw AVError(code: needsFFmpegCode, message: "\(name): not a JPEG")
        }
        let colour = PictureColour(displayProfile: displayProfile, name: name)
        do {
            return try jpeg(bytes, name: name, target: target, maxPixels: maxPixels, colour: colour)
        } catch where !JPEGStill.isFinal(error.code) {
            throw AVError(code: needsFFmpegCode, message: error.message)
        }
    }

    private static func jpeg(_ raw: UnsafeRawBufferPointer, name: String, target: (width: Int, height: Int)?,
                             maxPixels: Int, colour: PictureColour) throws(AVError) -> Result {
        do throws(AVError) {
            let rotation = JPEGOrientation.rotation(ofJPEG: raw)
            let stored = try JPEGStill.storedSize(raw)
            let lowres = reduction(stored: stored, target: target)
            let frame = try JPEGStill(lowres: lowres, maxPixels: maxPixels, shared: true).decode(raw)
            return Result(frame: colour.manage(frame), rotation: rotation, stored: stored,
                          formatName: "jpeg_pipe", codec: "mjpeg")
        } catch {
            throw AVError(code: error.code, message: "\(name): \(error.message)")
        }
    }

    private static func ffmpeg(_ bytes: [UInt8], name: String, maxPixels: Int,
                               colour: PictureColour) throws(AVError) -> Result {
        guard let io = MemoryIO(data: Data(bytes)) else { throw AVError(message: "\(name): out of memory") }
        var options = SourceOptions()
        options.maxPixels = maxPixels
        let d = try Demuxer(url: name, options: options, io: io)
        let v = av_find_best_stream(d.ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard v >= 0 else { throw AVError(message: "\(name): no picture in it") }
        try checkSize(d.stream(Int(v)), name: name, maxPixels: maxPixels)
        let decoder = try Decoder(stream: d.stream(Int(v)), threads: 1, maxPixels: maxPixels)
        let frame = Frame()
        switch StillDecoder.firstPicture(of: d, stream: Int(v), decoder: decoder, into: frame, budget: 2000) {
        case .picture: break
        case .none: throw damaged(name, "; nothing of it could be decoded")
        case .failed(let e): throw e
        }
        // A picture the decoder patched up is not the photo: the user hears it is damaged,
        // as when the player decodes it.
        let f = frame.raw.pointee
        if f.flags & AV_FRAME_FLAG_CORRUPT != 0 || f.decode_error_flags != 0 { throw damaged(name, "") }
        var managed = colour.manage(frame)
        let format = AVPixelFormat(rawValue: managed.raw.pointee.format)
        if format != AV_PIX_FMT_RGBA && format != AV_PIX_FMT_BGR0 {
            guard let rgba = PictureColour.rgbaCopy(of: managed) else { throw AVError(message: "\(name): out of memory") }
            managed = rgba
        }
        let codec = String(cString: avcodec_get_name(d.stream(Int(v)).pointee.codecpar.pointee.codec_id))
        let size = (Int(frame.raw.pointee.width), Int(frame.raw.pointee.height))
        return Result(frame: managed, rotation: 0, stored: size, formatName: d.formatName, codec: codec)
    }

    /// Refuses a picture the header says is larger than the budget, or gives no size for,
    /// in the words the player uses, before a decoder allocates anything.
    private static func checkSize(_ st: UnsafeMutablePointer<AVStream>, name: String, maxPixels: Int) throws(AVError) {
        let par = st.pointee.codecpar.pointee
        let w = Int(par.width), h = Int(par.height)
        guard w > 0, h > 0 else { throw AVError(message: "\(name): the picture has no size (damaged, or too large to decode)") }
        guard w * h <= maxPixels else { throw PictureSources.tooLarge(name, w, h, maxPixels) }
    }

    /// The one line for a still that does not decode whole.
    private static func damaged(_ name: String, _ detail: String) -> AVError {
        AVError(code: cff_averror_invaliddata, message: "\(name): the picture is damaged or cut short\(detail)")
    }

    /// Halvings of each side that still cover `target` (compared with the stored size), as the player's own
    /// reduced-size JPEG decode picks them.
    static func reduction(stored: (width: Int, height: Int), target: (width: Int, height: Int)?) -> Int {
        guard let t = target, t.width > 0, t.height > 0, stored.width > 0, stored.height > 0 else { return 0 }
        let scale = min(Double(t.width) / Double(stored.width), Double(t.height) / Double(stored.height))
        var l = 0
        while l < 3 && scale * Double(1 << (l + 1)) <= 1 { l += 1 }
        return l
    }
}
