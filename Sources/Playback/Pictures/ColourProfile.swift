import CLCMS

/// One colour profile opened by Little CMS: a picture's embedded one, the display's, or a
/// standard one (sRGB, or one built from a picture's nclx primaries).
final class ColourProfile {
    let handle: cmsHPROFILE

    private init(handle: cmsHPROFILE) { self.handle = handle }

    deinit { cmsCloseProfile(handle) }

    /// The profile in `icc`; nil when lcms2 cannot read it (a damaged or truncated profile).
    convenience init?(icc: [UInt8]) {
        guard !icc.isEmpty, icc.count <= ColourProfile.largestICC,
              let h = icc.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        else { return nil }
        self.init(handle: h)
    }

    /// The web's and the desktop's default: what an untagged picture and a display without
    /// a profile are taken to be.
    static func sRGB() -> ColourProfile? {
        cmsCreate_sRGBProfile().map { ColourProfile(handle: $0) }
    }

    /// A profile for H.273 colour primaries with the sRGB tone curve, as AVIF and HEIC
    /// describe their colours in an nclx box; nil for sRGB/BT.709 primaries (nothing to
    /// convert) and for primaries this viewer does not know.
    static func nclx(primaries: Int, transfer: Int) -> ColourProfile? {
        // x, y of red, green, blue; D65 white for all of these.
        let table: [Int: [Double]] = [
            9: [0.708, 0.292, 0.170, 0.797, 0.131, 0.046],   // BT.2020
            12: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060],  // Display P3
            5: [0.640, 0.330, 0.290, 0.600, 0.150, 0.060],   // BT.470 BG (PAL)
            6: [0.630, 0.340, 0.310, 0.595, 0.155, 0.070],   // SMPTE 170M (NTSC)
        ]
        guard let p = table[primaries] else { return nil }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var prim = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: p[0], y: p[1], Y: 1), Green: cmsCIExyY(x: p[2], y: p[3], Y: 1),
                                   Blue: cmsCIExyY(x: p[4], y: p[5], Y: 1))
        // Linear light (8) is a straight line; everything else is given the sRGB curve, which
        // is what the BT.709-family curves are shown with on a desktop.
        var params: [cmsFloat64Number] = transfer == 8 ? [1] : [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, transfer == 8 ? 1 : 4, &params) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let h = cmsCreateRGBProfile(&white, &prim, &curves) else { return nil }
        return ColourProfile(handle: h)
    }

    /// Whether it describes RGB pictures; a grey or CMYK profile does not fit the RGBA
    /// pictures the viewer converts and is left alone.
    var isRGB: Bool { cmsGetColorSpace(handle) == cmsSigRgbData }

    /// ICC profiles are a few KiB (a camera's LUT profile some hundreds); a larger one is
    /// not read at all.
    static let largestICC = 4 << 20
}

/// A conversion between two profiles for RGBA pictures, alpha kept as it is.
final class ColourTransform {
    private let handle: cmsHTRANSFORM

    /// Nil when lcms2 cannot join the two (a profile without the tags a conversion needs).
    init?(from source: ColourProfile, to target: ColourProfile) {
        let format = mv_lcms_type_rgba_8()
        guard let h = cmsCreateTransform(source.handle, format, target.handle, format,
                                         cmsUInt32Number(INTENT_PERCEPTUAL), cmsUInt32Number(cmsFLAGS_COPY_ALPHA))
        else { return nil }
        handle = h
    }

    deinit { cmsDeleteTransform(handle) }

    /// Converts `height` rows of `width` RGBA pixels, `stride` bytes apart, in place.
    func apply(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        guard width > 0, height > 0 else { return }
        cmsDoTransformLineStride(handle, pixels, pixels, cmsUInt32Number(width), cmsUInt32Number(height),
                                 cmsUInt32Number(stride), cmsUInt32Number(stride), 0, 0)
    }
}
