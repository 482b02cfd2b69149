import CFFmpeg
import CHEIF
import MediaCore

/// A HEIC (or other HEIF) photo decoded by libheif: its primary picture, turned and
/// mirrored as the file says (libheif applies irot and imir), colours converted from its
/// ICC or nclx profile.
final class HEIFPicture: PictureSource {
    private let context: OpaquePointer
    private var handle: OpaquePointer?
    /// libheif reads the file from here without copying it, so it lives as long as the context.
    private let bytes: UnsafeMutableRawBufferPointer
    private let name: String
    private let colour: PictureColour
    private(set) var info = MediaInfo.picture(kind: .image, width: 0, height: 0, format: "heif", codec: nil)
    private var source = PictureColour.Source.sRGB
    private var done = false

    init(bytes file: [UInt8], name: String, maxPixels: Int, colour: PictureColour) throws(AVError) {
        guard let ctx = heif_context_alloc() else { throw AVError(message: "\(name): out of memory") }
        context = ctx
        self.name = name
        self.colour = colour
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, file.count), alignment: 16)
        file.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = copy
        // libheif's own guard is on each side: no side a picture within the budget may have
        // (a 16000x4000 panorama) is refused by it; the area is checked below.
        heif_context_set_maximum_image_size_limit(ctx, Int32(clamping: max(1, min(maxPixels, 1 << 16))))
        var e = heif_context_read_from_memory_without_copy(ctx, bytes.baseAddress, file.count, nil)
        if e.subcode == heif_suberror_Security_limit_exceeded {
            throw HEIFPicture.failure(name, "picture is over the limit of \(maxPixels) pixels (raise it with --max-pixels)", e)
        }
        guard e.code == heif_error_Ok else { throw HEIFPicture.failure(name, "not a valid HEIF picture", e) }
        var h: OpaquePointer?
        e = heif_context_get_primary_image_handle(ctx, &h)
        guard e.code == heif_error_Ok, let h else { throw HEIFPicture.failure(name, "no picture in it", e) }
        handle = h
        // The size as shown (after irot), before any pixel is decoded.
        let w = Int(heif_image_handle_get_width(h)), hh = Int(heif_image_handle_get_height(h))
        guard w > 0, hh > 0, w * hh <= maxPixels else { throw PictureSources.tooLarge(name, w, hh, maxPixels) }
        info = MediaInfo.picture(kind: .image, width: w, height: hh, format: "heif", codec: "hevc (libheif)")
        source = HEIFPicture.colours(of: h)
    }

    deinit {
        if let handle { heif_image_handle_release(handle) }
        heif_context_free(context)
        bytes.deallocate()
    }

    private static func failure(_ name: String, _ what: String, _ e: heif_error) -> AVError {
        let why = e.message.map { PictureSources.oneLine(String(cString: $0)) } ?? "error \(e.code.rawValue)"
        return AVError(code: cff_averror_invaliddata, message: "\(name): \(what) (\(why))")
    }

    /// The picture's colours: its ICC profile, else its nclx primaries, else sRGB.
    private static func colours(of h: OpaquePointer) -> PictureColour.Source {
        let type = heif_image_handle_get_color_profile_type(h)
        if type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC {
            let size = heif_image_handle_get_raw_color_profile_size(h)
            guard size > 0, size <= ColourProfile.largestICC else { return .sRGB }
            var icc = [UInt8](repeating: 0, count: size)
            let e = icc.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(h, $0.baseAddress) }
            return e.code == heif_error_Ok ? .icc(icc) : .sRGB
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif_image_handle_get_nclx_color_profile(h, &nclx).code == heif_error_Ok, let nclx else { return .sRGB }
        defer { heif_nclx_color_profile_free(nclx) }
        let p = ColourProfile.nclx(primaries: Int(nclx.pointee.color_primaries.rawValue),
                                   transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
        return p.map { .profile($0) } ?? .sRGB
    }

    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)? {
        guard !done, let handle else { return nil }
        done = true
        var image: OpaquePointer?
        let e = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil)
        guard e.code == heif_error_Ok, let image else { throw HEIFPicture.failure(name, "the picture cannot be decoded", e) }
        defer { heif_image_release(image) }
        var stride: Int32 = 0
        let w = Int(heif_image_get_width(image, heif_channel_interleaved))
        let h = Int(heif_image_get_height(image, heif_channel_interleaved))
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), w > 0, h > 0 else {
            throw AVError(message: "\(name): the picture decoded to nothing")
        }
        guard let frame = PictureSources.frame(width: w, height: h), let dst = frame.raw.pointee.data.0 else {
            throw AVError(message: "\(name): no memory for a \(w)x\(h) picture")
        }
        let dstStride = Int(frame.raw.pointee.linesize.0)
        for y in 0..<h { (dst + y * dstStride).update(from: plane + y * Int(stride), count: w * 4) }
        colour.convert(rgba: frame, from: source)
        return (frame, 0, 0)
    }

    func rewind() { done = false }
}
