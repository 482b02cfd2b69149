import CAVIF
import CFFmpeg
import MediaCore

/// An AVIF still or animation decoded by libavif, with its own frame durations, its
/// rotation and mirroring, and its colours (ICC or nclx) converted for the display.
final class AVIFPicture: PictureSource {
    private let decoder: UnsafeMutablePointer<avifDecoder>
    /// libavif reads the file from here without copying it, so it lives as long as the decoder.
    private let bytes: UnsafeMutableRawBufferPointer
    let info: MediaInfo
    private let colour: PictureColour
    private let source: PictureColour.Source
    /// imir: 0 swaps top and bottom, 1 left and right.
    private let mirror: UInt8?
    private let name: String
    private var clock = 0.0

    init(bytes file: [UInt8], name: String, maxPixels: Int, colour: PictureColour, threads: Int = 2) throws(AVError) {
        guard let d = avifDecoderCreate() else { throw AVError(message: "\(name): out of memory") }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, file.count), alignment: 16)
        file.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = copy
        decoder = d
        self.name = name
        self.colour = colour
        // Files from cameras and converters bend the letter of the format (a missing pixi box,
        // an odd clap); browsers show them, and so does this.
        d.pointee.strictFlags = AVIF_STRICT_DISABLED.rawValue
        d.pointee.maxThreads = Int32(threads)
        func failure(_ r: avifResult) -> AVError {
            let diag = withUnsafeBytes(of: d.pointee.diag.error) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            let why = PictureSources.oneLine(diag.isEmpty ? String(cString: avifResultToString(r)) : diag)
            return AVError(code: cff_averror_invaliddata, message: "\(name): not a valid AVIF picture (\(why))")
        }
        var r = avifDecoderSetIOMemory(d, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), file.count)
        if r == AVIF_RESULT_OK { r = avifDecoderParse(d) }
        guard r == AVIF_RESULT_OK, let image = d.pointee.image else {
            // The decoder and the bytes are stored, so deinit frees them.
            info = MediaInfo.picture(kind: .image, width: 0, height: 0, format: "avif", codec: nil)
            source = .sRGB
            mirror = nil
            throw failure(r)
        }
        let w = Int(image.pointee.width), h = Int(image.pointee.height)
        let flags = image.pointee.transformFlags
        let turn = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? (4 - Int(image.pointee.irot.angle & 3)) % 4 * 90 : 0
        // imir comes after irot, so it mirrors the turned picture: on a quarter turn, the other
        // axis of the stored one.
        mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? (image.pointee.imir.mode & 1) ^ (turn % 180 == 0 ? 0 : 1) : nil
        let animated = d.pointee.imageCount > 1
        info = MediaInfo.picture(kind: animated ? .animated : .image, width: turn % 180 == 0 ? w : h,
                                 height: turn % 180 == 0 ? h : w, format: "avif", codec: "av1 (libavif)", rotation: turn)
        if image.pointee.icc.size > 0, let data = image.pointee.icc.data {
            source = .icc(Array(UnsafeBufferPointer(start: data, count: image.pointee.icc.size)))
        } else if let p = ColourProfile.nclx(primaries: Int(image.pointee.colorPrimaries),
                                             transfer: Int(image.pointee.transferCharacteristics)) {
            source = .profile(p)
        } else {
            source = .sRGB
        }
        // The header's size, before any pixel is decoded.
        guard w > 0, h > 0, w * h <= maxPixels else { throw PictureSources.tooLarge(name, w, h, maxPixels) }
    }

    deinit {
        avifDecoderDestroy(decoder)
        bytes.deallocate()
    }

    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)? {
        let r = avifDecoderNextImage(decoder)
        if r == AVIF_RESULT_NO_IMAGES_REMAINING { return nil }
        guard r == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            throw AVError(code: cff_averror_invaliddata,
                          message: "\(name): the AVIF picture cannot be decoded (\(String(cString: avifResultToString(r))))")
        }
        let w = Int(image.pointee.width), h = Int(image.pointee.height)
        guard let frame = PictureSources.frame(width: w, height: h), let base = frame.raw.pointee.data.0 else {
            throw AVError(message: "\(name): no memory for a \(w)x\(h) picture")
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.pixels = base
        rgb.rowBytes = UInt32(frame.raw.pointee.linesize.0)
        let c = avifImageYUVToRGB(image, &rgb)
        guard c == AVIF_RESULT_OK else {
            throw AVError(message: "\(name): the AVIF picture cannot be converted (\(String(cString: avifResultToString(c))))")
        }
        if let m = mirror { PictureSources.mirror(frame, leftRight: m == 1) }
        colour.convert(rgba: frame, from: source)
        let duration = info.kind == .animated ? PictureSources.animationDelay(decoder.pointee.imageTiming.duration) : 0
        let pts = clock
        clock += duration
        return (frame, pts, duration)
    }

    func rewind() {
        _ = avifDecoderReset(decoder)
        clock = 0
    }
}

extension PictureSources {
    /// Mirrors a 4-byte-a-pixel frame in place: left and right, or top and bottom.
    static func mirror(_ frame: Frame, leftRight: Bool) {
        let f = frame.raw
        guard let base = f.pointee.data.0 else { return }
        let w = Int(f.pointee.width), h = Int(f.pointee.height), stride = Int(f.pointee.linesize.0)
        if leftRight {
            for y in 0..<h {
                let row = UnsafeMutableRawPointer(base + y * stride).assumingMemoryBound(to: UInt32.self)
                var a = 0, b = w - 1
                while a < b { row.swapAt(a, b); a += 1; b -= 1 }
            }
        } else {
            var a = 0, b = h - 1
            let tmp = UnsafeMutablePointer<UInt8>.allocate(capacity: w * 4)
            defer { tmp.deallocate() }
            while a < b {
                tmp.update(from: base + a * stride, count: w * 4)
                (base + a * stride).update(from: base + b * stride, count: w * 4)
                (base + b * stride).update(from: tmp, count: w * 4)
                a += 1; b -= 1
            }
        }
    }
}

extension UnsafeMutablePointer {
    fileprivate func swapAt(_ i: Int, _ j: Int) {
        let t = self[i]; self[i] = self[j]; self[j] = t
    }
}

extension MediaInfo {
    /// What a picture decoded outside FFmpeg is, for the viewer and the info panel.
    static func picture(kind: Kind, width: Int, height: Int, format: String, codec: String?, rotation: Int = 0,
                        isScalable: Bool = false) -> MediaInfo {
        var i = MediaInfo(kind: kind, duration: nil, width: width, height: height, hasAudio: false, hasCoverArt: false,
                          formatName: format, videoCodec: codec, audioCodec: nil, title: nil, artist: nil,
                          rotation: rotation)
        i.isScalable = isScalable
        return i
    }
}
