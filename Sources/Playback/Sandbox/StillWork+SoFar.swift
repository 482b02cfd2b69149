import CFFmpeg
import MediaCore

/// A picture from the bytes of a web still that have arrived so far, so the user sees the
/// photo take shape during a slow download instead of a spinner until the last byte.
///
/// JPEG does this best: libjpeg-turbo decodes a file cut anywhere, and a progressive one
/// gives the whole picture, blurry, from its first scan on. It is decoded at the shown size
/// (DCT scaling, as for the whole file), so a 24 MP photo costs little each time. A GIF
/// shows its first frame, once that is all in, until the whole animation can play.
extension StillWork {
    /// The picture in `bytes`, the start of a JPEG file still arriving, for a window of
    /// `target`: the rows the bytes do not reach yet are black, as the view's background
    /// around the picture, rather than libjpeg's grey filler. Throws when nothing can be
    /// shown yet (the header is not all in) or the file is not a JPEG.
    public static func decodeSoFar(_ bytes: [UInt8], name: String, target: (width: Int, height: Int)?, maxPixels: Int,
                                   displayProfile: [UInt8]?) throws(AVError) -> Result {
        if GIFFirstFrame.isGIF(bytes) { return try firstFrame(bytes, name: name, maxPixels: maxPixels) }
        guard bytes.starts(with: [0xFF, 0xD8, 0xFF]) else {
            throw AVError(message: "\(name): only a JPEG or a GIF is shown while it downloads")
        }
        let colour = PictureColour(displayProfile: displayProfile, name: name, quiet: true)
        var outcome: Swift.Result<Result, AVError> = .failure(AVError(message: "\(name): no data"))
        bytes.withUnsafeBytes { raw in
            do throws(AVError) {
                let rotation = JPEGOrientation.rotation(ofJPEG: raw)
                let stored = try JPEGStill.storedSize(raw)
                let lowres = reduction(stored: stored, target: target)
                let decoded = try JPEGStill(lowres: lowres, maxPixels: maxPixels).decodeSoFar(raw)
                let frame = colour.manage(decoded.frame)
                blank(frame, from: decoded.rows)
                var result = Result(frame: frame, rotation: rotation, stored: stored, formatName: "jpeg_pipe", codec: "mjpeg")
                result.rowsPresent = decoded.rows
                outcome = .success(result)
            } catch {
                outcome = .failure(AVError(code: error.code, message: "\(name): \(error.message)"))
            }
        }
        return try outcome.get()
    }

    /// The first frame of `bytes`, the start of a GIF, as a still: what the animation will
    /// start with once it has all come.
    private static func firstFrame(_ bytes: [UInt8], name: String, maxPixels: Int) throws(AVError) -> Result {
        let animation = try FFmpegAnimation(bytes: bytes, name: name, maxPixels: maxPixels)
        guard var frame = try animation.next()?.frame else { throw AVError(message: "\(name): no frame has come yet") }
        if !AnimationWork.sendsAsIs(frame) {
            guard let rgba = PictureColour.rgbaCopy(of: frame) else { throw AVError(code: cff_averror(ENOMEM), message: "\(name): out of memory") }
            frame = rgba
        }
        let info = animation.info
        return Result(frame: frame, rotation: 0, stored: (info.width, info.height), formatName: info.formatName,
                      codec: info.videoCodec ?? "")
    }

    /// Paints the rows from `row` down black (opaque): where the download has not reached.
    private static func blank(_ frame: Frame, from row: Int) {
        let f = frame.raw
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        guard row < h, let base = f.pointee.data.0 else { return }
        let opaque: UInt8 = f.pointee.format == AV_PIX_FMT_RGBA.rawValue ? 255 : 0
        for y in max(0, row)..<h {
            let line = base + y * Int(f.pointee.linesize.0)
            line.update(repeating: 0, count: w * 4)
            if opaque != 0 { for x in 0..<w { line[x * 4 + 3] = opaque } }
        }
    }
}
