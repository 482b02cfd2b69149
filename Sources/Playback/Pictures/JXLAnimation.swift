import CFFmpeg
import CJXL
import MediaCore

/// An animated JPEG XL decoded by libjxl, one full canvas a frame with its own duration.
///
/// FFmpeg's libjxl decoder gives only the first frame of an animation; JPEG XL stills stay
/// with FFmpeg, so this opens only files whose header says they are animated.
final class JXLAnimation: PictureSource {
    private let decoder: OpaquePointer
    /// libjxl reads the file from here, so it lives as long as the decoder.
    private let bytes: UnsafeMutableRawBufferPointer
    private let name: String
    private let colour: PictureColour
    let info: MediaInfo
    /// Seconds per tick of the animation's frame durations.
    private let tick: Double
    private var source = PictureColour.Source.sRGB
    private var clock = 0.0

    /// The animation in `file`; nil for a still (FFmpeg's), refused over `maxPixels`.
    static func openIfAnimated(_ file: [UInt8], name: String, maxPixels: Int,
                               colour: PictureColour) throws(AVError) -> JXLAnimation? {
        let a = try JXLAnimation(bytes: file, name: name, maxPixels: maxPixels, colour: colour)
        return a.info.kind == .animated ? a : nil
    }

    private init(bytes file: [UInt8], name: String, maxPixels: Int, colour: PictureColour) throws(AVError) {
        guard let d = JxlDecoderCreate(nil) else { throw AVError(message: "\(name): out of memory") }
        decoder = d
        self.name = name
        self.colour = colour
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, file.count), alignment: 16)
        file.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = copy
        var basic = JxlBasicInfo()
        var status = JXL_DEC_ERROR
        if JxlDecoderSubscribeEvents(d, Int32(JXL_DEC_BASIC_INFO.rawValue)) == JXL_DEC_SUCCESS,
           JxlDecoderSetInput(d, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), file.count) == JXL_DEC_SUCCESS {
            JxlDecoderCloseInput(d)
            status = JxlDecoderProcessInput(d)
        }
        if status == JXL_DEC_BASIC_INFO { status = JxlDecoderGetBasicInfo(d, &basic) }
        let w = Int(basic.xsize), h = Int(basic.ysize)
        let turned = basic.orientation.rawValue >= 5
        info = MediaInfo.picture(kind: basic.have_animation != 0 ? .animated : .image, width: turned ? h : w,
                                 height: turned ? w : h, format: "jxl", codec: "jpegxl (libjxl)")
        let num = Double(basic.animation.tps_numerator), den = Double(basic.animation.tps_denominator)
        tick = num > 0 ? max(den, 1) / num : 0.1
        guard status == JXL_DEC_SUCCESS else {
            throw AVError(code: cff_averror_invaliddata, message: "\(name): not a valid JPEG XL picture")
        }
        // The header's size, before any pixel is decoded.
        guard w > 0, h > 0, w * h <= maxPixels else { throw PictureSources.tooLarge(name, w, h, maxPixels) }
        if info.kind == .animated { rewind() }
    }

    deinit {
        JxlDecoderDestroy(decoder)
        bytes.deallocate()
    }

    func rewind() {
        JxlDecoderRewind(decoder)
        let events = JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        _ = JxlDecoderSubscribeEvents(decoder, Int32(events))
        _ = JxlDecoderSetInput(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
        JxlDecoderCloseInput(decoder)
        clock = 0
    }

    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)? {
        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var frame: Frame?
        var duration = 0.1
        while true {
            switch JxlDecoderProcessInput(decoder) {
            case JXL_DEC_COLOR_ENCODING:
                source = colours(&format)
            case JXL_DEC_FRAME:
                var header = JxlFrameHeader()
                if JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS {
                    duration = PictureSources.animationDelay(Double(header.duration) * tick)
                }
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var size = 0
                guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS,
                      let f = PictureSources.frame(width: info.width, height: info.height),
                      let base = f.raw.pointee.data.0 else {
                    throw AVError(message: "\(name): no memory for a \(info.width)x\(info.height) frame")
                }
                format.align = Int(f.raw.pointee.linesize.0)
                let room = Int(f.raw.pointee.linesize.0) * info.height
                guard JxlDecoderSetImageOutBuffer(decoder, &format, base, room) == JXL_DEC_SUCCESS else {
                    throw AVError(message: "\(name): the JPEG XL frame does not fit its canvas")
                }
                frame = f
            case JXL_DEC_FULL_IMAGE:
                guard let f = frame else { continue }
                colour.convert(rgba: f, from: source)
                let pts = clock
                clock += duration
                return (f, pts, duration)
            case JXL_DEC_SUCCESS:
                return nil
            case JXL_DEC_NEED_MORE_INPUT:
                throw AVError(code: cff_averror_invaliddata, message: "\(name): the JPEG XL file ends before its last frame")
            default:
                throw AVError(code: cff_averror_invaliddata, message: "\(name): the JPEG XL frame cannot be decoded")
            }
        }
    }

    /// sRGB when the file says so in so many words, else the ICC profile libjxl gives for
    /// the decoded pixels.
    private func colours(_ format: inout JxlPixelFormat) -> PictureColour.Source {
        var encoded = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoded) == JXL_DEC_SUCCESS,
           encoded.color_space == JXL_COLOR_SPACE_RGB || encoded.color_space == JXL_COLOR_SPACE_GRAY,
           encoded.white_point == JXL_WHITE_POINT_D65, encoded.primaries == JXL_PRIMARIES_SRGB,
           encoded.transfer_function == JXL_TRANSFER_FUNCTION_SRGB {
            return .sRGB
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
              size > 0, size <= ColourProfile.largestICC else { return .sRGB }
        var icc = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &icc, size) == JXL_DEC_SUCCESS
        else { return .sRGB }
        return .icc(icc)
    }
}
