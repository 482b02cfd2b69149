import CFFmpeg
import CJPEG
import Glibc
import MediaCore

/// Decodes a JPEG still with libjpeg-turbo, already scaled down in the DCT domain.
///
/// A still's one picture is what the user waits for. On a 24 MP photo at 1/4 size FFmpeg's
/// mjpeg decoder with `lowres` took ~135 ms and libjpeg-turbo ~105 ms, and libjpeg's picture
/// is closer to a full decode scaled down (its chroma comes out at full resolution, where
/// FFmpeg's stays 4:2:0), so JPEG stills come here first. Pictures are BGR0 AVFrames with the
/// packet's timestamps, as FFmpeg's decoder hands them over, so nothing after the decoder
/// changes. What libjpeg declines (CMYK, YCCK, 12-bit, damage it cannot get past) throws, and
/// the caller gives that packet to FFmpeg, which shows whatever it can of it, as before.
struct JPEGStill {
    /// The error code of a picture whose file ends before it does: not for another decoder
    /// to fill in, but for the user to hear about.
    static let truncatedCode = cff_averror(ENODATA)
    /// The error code of a picture too large for the pixel budget even reduced.
    static let overBudgetCode = cff_averror(E2BIG)

    /// Halvings of each side, as FFmpeg's `lowres`: libjpeg's scale_denom is 1 << lowres.
    let lowres: Int
    /// Stored pixels above which a picture is refused before anything is allocated.
    let maxPixels: Int

    /// Whether the picture is decoded into a memfd (`Frame.shared`), for a worker to hand
    /// over without copying; else into libavutil's heap.
    let shared: Bool

    init(lowres: Int, maxPixels: Int, shared: Bool = false) {
        self.lowres = max(0, min(lowres, 3))
        self.maxPixels = maxPixels
        self.shared = shared
    }

    /// The frame the picture is decoded into.
    private func output(width: Int, height: Int) -> Frame? {
        if shared { return Frame.shared(width: width, height: height, format: AV_PIX_FMT_BGR0) }
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = AV_PIX_FMT_BGR0.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        return av_frame_get_buffer(f, 0) >= 0 ? frame : nil
    }

    /// The libjpeg path for the player's video thread: only JPEG stills take it (a motion
    /// JPEG video stays with FFmpeg), at the `lowres` the FFmpeg decoder was opened with.
    init?(kind: MediaInfo.Kind, decoder: Decoder, maxPixels: Int) {
        guard kind == .image, decoder.ctx.pointee.codec_id == AV_CODEC_ID_MJPEG else { return nil }
        self.init(lowres: Int(decoder.ctx.pointee.lowres), maxPixels: maxPixels)
    }

    /// The packet's picture, stamped with the packet's pts, dts and duration as
    /// `avcodec_receive_frame` would stamp it.
    func decode(_ packet: Packet) throws(AVError) -> Frame {
        let p = packet.raw.pointee
        let frame = try decode(UnsafeRawBufferPointer(start: p.data, count: Int(max(0, p.size))))
        let f = frame.raw
        f.pointee.pts = p.pts
        f.pointee.pkt_dts = p.dts
        f.pointee.best_effort_timestamp = p.pts != cff_nopts ? p.pts : p.dts
        f.pointee.pkt_duration = p.duration
        f.pointee.pkt_pos = p.pos
        f.pointee.pkt_size = p.size
        return frame
    }

    /// The stored size from the header alone, so a caller can pick how far to scale down
    /// before anything is decoded.
    static func storedSize(_ bytes: UnsafeRawBufferPointer) throws(AVError) -> (width: Int, height: Int) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw AVError(code: cff_averror_invaliddata, message: "libjpeg: no data")
        }
        guard let d = cjpeg_new() else { throw AVError(code: cff_averror(ENOMEM), message: "libjpeg: out of memory") }
        defer { cjpeg_free(d) }
        var info = cjpeg_info()
        guard cjpeg_read_header(d, base.assumingMemoryBound(to: UInt8.self), bytes.count, 8, &info) == CJPEG_OK else {
            throw AVError(code: cff_averror_invaliddata, message: "libjpeg: " + String(cString: cjpeg_message(d)))
        }
        return (Int(info.image_width), Int(info.image_height))
    }

    /// The picture in `bytes` (one whole JPEG file), decoded into a new BGR0 frame.
    func decode(_ bytes: UnsafeRawBufferPointer) throws(AVError) -> Frame {
        try decode(bytes, acceptingCut: false).frame
    }

    /// The picture in the first part of a JPEG file still arriving, and how many rows from
    /// the top are its own: a progressive file gives the whole picture, blurry, once its
    /// first scan is in; a baseline one the rows down to where the bytes end. The rows
    /// below are libjpeg's grey filler.
    func decodeSoFar(_ bytes: UnsafeRawBufferPointer) throws(AVError) -> (frame: Frame, rows: Int) {
        try decode(bytes, acceptingCut: true)
    }

    private func decode(_ bytes: UnsafeRawBufferPointer, acceptingCut: Bool) throws(AVError) -> (frame: Frame, rows: Int) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw AVError(code: cff_averror_invaliddata, message: "libjpeg: no data")
        }
        guard let d = cjpeg_new() else { throw AVError(code: cff_averror(ENOMEM), message: "libjpeg: out of memory") }
        defer { cjpeg_free(d) }
        func failure() -> AVError {
            AVError(code: cff_averror_invaliddata, message: "libjpeg: " + String(cString: cjpeg_message(d)))
        }
        var info = cjpeg_info()
        let status = cjpeg_read_header(d, base.assumingMemoryBound(to: UInt8.self), bytes.count,
                                       Int32(1 << lowres), &info)
        guard status == CJPEG_OK else {
            // Unsupported gets its own code so a caller (and a test) can tell "not mine" from damage.
            if status == CJPEG_UNSUPPORTED {
                throw AVError(code: cff_averror(ENOSYS), message: "libjpeg: " + String(cString: cjpeg_message(d)))
            }
            throw failure()
        }
        let overBudget = try fitBudget(d, &info)
        if overBudget, info.progressive != 0, !acceptingCut, let dc = Self.progressiveDC(bytes) {
            // Held whole, its coefficients would pass the budget at any scale; its DC scans
            // alone make the picture at an eighth, decoded a row at a time.
            let eighth = JPEGStill(lowres: 3, maxPixels: maxPixels, shared: shared)
            return try dc.withUnsafeBytes { raw in Result { () throws(AVError) in try eighth.decode(raw, acceptingCut: false) } }
                .get()
        }
        // libjpeg gives the profile only between the header and the end of decoding.
        var icc: [UInt8]?
        var iccLength: UInt32 = 0
        if let bytes = cjpeg_icc_profile(d, &iccLength) {
            icc = Array(UnsafeBufferPointer(start: bytes, count: Int(iccLength)))
            free(bytes)
        }
        guard let frame = output(width: Int(info.width), height: Int(info.height)), let dst = frame.raw.pointee.data.0 else {
            throw AVError(code: cff_averror(ENOMEM),
                          message: "libjpeg: no memory for a \(info.width)x\(info.height) picture")
        }
        let f = frame.raw
        let decoded = cjpeg_decode_into(d, dst, Int(f.pointee.linesize.0))
        if decoded == CJPEG_TRUNCATED, acceptingCut {
            describe(f, info: info, icc: icc)
            return (frame, Int(cjpeg_rows_present(d)))
        }
        if decoded == CJPEG_TRUNCATED {
            throw AVError(code: JPEGStill.truncatedCode, message: "truncated JPEG: " + String(cString: cjpeg_message(d)))
        }
        if decoded != CJPEG_OK, overBudget {
            // FFmpeg would refuse it outright: the user hears about the budget, not libjpeg.
            throw AVError(code: JPEGStill.overBudgetCode,
                          message: "libjpeg: picture is \(info.image_width)x\(info.image_height), over the limit of "
                          + "\(maxPixels) pixels, and cannot be shown reduced within it "
                          + "(\(String(cString: cjpeg_message(d))); raise it with --max-pixels)")
        }
        guard decoded == CJPEG_OK else { throw failure() }
        describe(f, info: info, icc: icc)
        return (frame, Int(info.height))
    }

    /// The DC scans of the progressive JPEG in `bytes`, written again as a baseline JPEG of
    /// the same size whose blocks hold their DC alone; nil when they cannot be read.
    static func progressiveDC(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var length = 0
        guard let made = cjpeg_progressive_dc(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                              &length) else { return nil }
        defer { free(made) }
        return Array(UnsafeBufferPointer(start: made, count: length))
    }

    /// Weighs the header's stored size against the budget. Within it, nothing changes. Over
    /// it, the picture is decoded only as far reduced as it must be to fit (libjpeg's DCT
    /// scaling allocates only the reduced output), with libjpeg's own memory capped at the
    /// budget's bytes: a progressive file keeps every coefficient at full size and fails
    /// there instead. True when the picture is over the budget.
    private func fitBudget(_ d: OpaquePointer, _ info: inout cjpeg_info) throws(AVError) -> Bool {
        let w = Int(info.image_width), h = Int(info.image_height)
        guard w > 0, h > 0 else { throw AVError(code: cff_averror_invaliddata, message: "libjpeg: the picture has no size") }
        guard w * h > maxPixels else { return false }
        guard let fit = JPEGStill.budgetReduction(width: w, height: h, maxPixels: maxPixels) else {
            throw AVError(code: JPEGStill.overBudgetCode,
                          message: "libjpeg: picture is \(w)x\(h), over the limit of \(maxPixels) pixels "
                          + "even at an eighth of its size (raise it with --max-pixels)")
        }
        if fit > lowres, cjpeg_set_scale(d, Int32(1 << fit), &info) != CJPEG_OK {
            throw AVError(code: cff_averror_invaliddata, message: "libjpeg: " + String(cString: cjpeg_message(d)))
        }
        cjpeg_limit_memory(d, maxPixels * 4)
        return true
    }

    /// The fewest halvings (up to three, libjpeg's 1/8) that bring a picture stored at
    /// `width` x `height` within `maxPixels`; nil when even an eighth is over.
    public static func budgetReduction(width: Int, height: Int, maxPixels: Int) -> Int? {
        (0...3).first { l in
            let d = 1 << l
            return ((width + d - 1) / d) * ((height + d - 1) / d) <= maxPixels
        }
    }

    /// Whether a failure with `code` is the picture's own last word: a truncated file, or one
    /// over the budget. Handing it to FFmpeg would only show grey rows or refuse in other words.
    static func isFinal(_ code: Int32) -> Bool { code == truncatedCode || code == overBudgetCode }

    /// Marks a decoded picture as FFmpeg's mjpeg decoder would: its aspect ratio, a key
    /// frame, and its colour profile.
    private func describe(_ f: UnsafeMutablePointer<AVFrame>, info: cjpeg_info, icc: [UInt8]?) {
        // FFmpeg's mjpeg decoder takes the JFIF density as the sample aspect ratio, whatever
        // its unit; so does this, or the same file would change shape between the two paths.
        if info.density_x > 0, info.density_y > 0 {
            av_reduce(&f.pointee.sample_aspect_ratio.num, &f.pointee.sample_aspect_ratio.den,
                      Int64(info.density_x), Int64(info.density_y), Int64(Int32.max))
        }
        f.pointee.key_frame = 1
        f.pointee.pict_type = AV_PICTURE_TYPE_I
        // The colour profile goes where FFmpeg's decoder puts it, for colour management.
        if let icc, !icc.isEmpty, let sd = av_frame_new_side_data(f, AV_FRAME_DATA_ICC_PROFILE, icc.count) {
            sd.pointee.data.update(from: icc, count: icc.count)
        }
    }
}
