import CFFmpeg

/// How a frame's numbers mean colours: which YUV matrix, which range, and whether they are
/// HDR light levels that must be tone-mapped to look right on an SDR screen.
///
/// swscale on its own reads every YUV frame as BT.601 with limited range, so BT.709 video
/// came out with shifted hues, full-range video (phones, screen recordings) with grey
/// blacks and dull whites, and HDR10 or HLG video washed out.
struct SourceColour: Equatable {
    /// The YUV to RGB matrix, as swscale's `SWS_CS_*` (which share FFmpeg's colour-space numbers).
    var matrix: Int32
    /// 0-255 (JPEG, "pc") rather than 16-235.
    var fullRange: Bool
    /// The HDR transfer the picture is coded in; nil for SDR.
    var hdr: ToneMap.Transfer?
    /// Whether the matrix and range mean anything: RGB and grey pictures have neither.
    var isYUV: Bool

    /// What `f`'s tags say, with mpv's guesses for what they leave out.
    init(of f: UnsafeMutablePointer<AVFrame>) {
        let format = AVPixelFormat(rawValue: f.pointee.format)
        let desc = av_pix_fmt_desc_get(format)
        let flags = desc?.pointee.flags ?? 0
        isYUV = desc != nil && flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 && (desc?.pointee.nb_components ?? 0) >= 3
        let space = f.pointee.colorspace
        switch space {
        case AVCOL_SPC_UNSPECIFIED, AVCOL_SPC_RESERVED, AVCOL_SPC_RGB:
            // Untagged: HD is BT.709 and SD BT.601, as mpv and the broadcast standards assume.
            matrix = f.pointee.width >= 1280 || f.pointee.height > 576 ? SWS_CS_ITU709 : SWS_CS_DEFAULT
        case AVCOL_SPC_BT2020_CL:
            matrix = SWS_CS_BT2020
        default:
            matrix = Int32(space.rawValue)
        }
        // The yuvj formats are full range whatever the tag says.
        let jpegFormat = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P,
                          AV_PIX_FMT_YUVJ411P].contains(format)
        fullRange = jpegFormat || f.pointee.color_range == AVCOL_RANGE_JPEG
        switch f.pointee.color_trc {
        case AVCOL_TRC_SMPTE2084: hdr = .pq
        case AVCOL_TRC_ARIB_STD_B67: hdr = .hlg
        default: hdr = nil
        }
    }

    /// Tells a freshly made context the source's matrix and range; the output is full-range RGB.
    func apply(to sws: OpaquePointer) {
        guard isYUV else { return }
        let table = sws_getCoefficients(matrix)
        _ = sws_setColorspaceDetails(sws, table, fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                                     0, 1 << 16, 1 << 16)
    }
}
