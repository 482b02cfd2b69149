import CFFmpeg
import MediaCore

/// The formats with a decoder of their own (AVIF, HEIC, SVG, JPEG XL, WebP) in the worker:
/// each opened by the same `PictureSource` the player would use, its one picture taken, so
/// the worker shows what the viewer would have shown decoding it itself.
extension StillWork {
    /// What a file came to in the worker.
    public enum Decoded {
        /// A still, decoded.
        case still(Result)
        /// An animation (WebP, AVIF or JPEG XL with frames): the player plays it as video in
        /// the viewer, so the worker only says so.
        case moving
    }

    /// Decodes `bytes` as `decode` does, or says the file is an animation.
    public static func decoded(_ bytes: [UInt8], name: String, target: (width: Int, height: Int)?, maxPixels: Int,
                               displayProfile: [UInt8]?) throws(AVError) -> Decoded {
        let colour = PictureColour(displayProfile: displayProfile, name: name)
        if let own = try ownDecoder(bytes, name: name, target: target, maxPixels: maxPixels, colour: colour) {
            return own
        }
        return .still(try jpegOrFFmpeg(bytes, name: name, target: target, maxPixels: maxPixels, colour: colour))
    }

    /// The picture through its own library; nil for what FFmpeg (or libjpeg-turbo) reads,
    /// JPEG XL stills included, as in the player.
    private static func ownDecoder(_ bytes: [UInt8], name: String, target: (width: Int, height: Int)?, maxPixels: Int,
                                   colour: PictureColour) throws(AVError) -> Decoded? {
        guard let format = PictureFormat.sniff(Array(bytes.prefix(PictureFormat.headSize)), name: name) else { return nil }
        let source: PictureSource
        switch format {
        case .animatedWebP:
            return .moving
        case .jxl:
            return try JXLAnimation.openIfAnimated(bytes, name: name, maxPixels: maxPixels, colour: colour) == nil ? nil : .moving
        case .avif:
            // One thread: the worker may not start threads (clone is not on its allow-list).
            source = try AVIFPicture(bytes: bytes, name: name, maxPixels: maxPixels, colour: colour, threads: 1)
        case .heif:
            source = try HEIFPicture(bytes: bytes, name: name, maxPixels: maxPixels, colour: colour)
        case .svg:
            source = try SVGPicture(bytes: bytes, name: name, maxPixels: maxPixels, target: target, colour: colour)
        }
        guard source.info.kind == .image else { return .moving }
        guard let first = try source.next() else { throw AVError(message: "\(name): no picture could be decoded") }
        return .still(try result(first.frame, info: source.info, name: name))
    }

    /// The answer for a picture source's frame: RGBA (an SVG's BGRA converted), its turn
    /// and its size as stored (before the turn).
    private static func result(_ frame: Frame, info: MediaInfo, name: String) throws(AVError) -> Result {
        var out = frame
        if AVPixelFormat(rawValue: frame.raw.pointee.format) != AV_PIX_FMT_RGBA {
            guard let rgba = PictureColour.rgbaCopy(of: frame) else { throw AVError(message: "\(name): out of memory") }
            out = rgba
        }
        let stored = info.rotation % 180 == 0 ? (info.width, info.height) : (info.height, info.width)
        return Result(frame: out, rotation: info.rotation, stored: stored, formatName: info.formatName,
                      codec: info.videoCodec ?? "", isScalable: info.isScalable)
    }
}
