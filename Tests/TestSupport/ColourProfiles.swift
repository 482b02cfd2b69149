import CLCMS
import Foundation

/// ICC profiles for the colour-management tests, made with Little CMS at run time, and the
/// colours lcms2 says a picture tagged with one must show as on an sRGB display.
public enum ColourProfiles {
    /// A wide-gamut RGB profile (Adobe RGB's primaries, gamma 2.2): its raw values differ
    /// visibly from the same values read as sRGB.
    public static func wideGamut() throws -> String {
        let path = Fixtures.directory + "/wide-gamut.icc"
        if FileManager.default.fileExists(atPath: path) { return path }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.21, y: 0.71, Y: 1),
                                        Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        guard let curve = cmsBuildGamma(nil, 2.19921875) else { throw FixtureError("lcms2 made no tone curve") }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else { throw FixtureError("lcms2 made no profile") }
        defer { cmsCloseProfile(profile) }
        guard cmsSaveProfileToFile(profile, path) != 0 else { throw FixtureError("lcms2 could not save \(path)") }
        return path
    }

    /// Display P3 (D65, the sRGB curve), as an AVIF or HEIC names it with nclx primaries 12.
    public static func displayP3() throws -> String {
        let path = Fixtures.directory + "/display-p3.icc"
        if FileManager.default.fileExists(atPath: path) { return path }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1), Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
                                        Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        var params: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, 4, &params) else { throw FixtureError("lcms2 made no tone curve") }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else { throw FixtureError("lcms2 made no profile") }
        defer { cmsCloseProfile(profile) }
        guard cmsSaveProfileToFile(profile, path) != 0 else { throw FixtureError("lcms2 could not save \(path)") }
        return path
    }

    /// Bytes that start like an ICC profile and are not one: a damaged profile.
    public static let damaged: [UInt8] = [0, 0, 0, 200] + Array("lcmsmntrRGB XYZ ".utf8) + [UInt8](repeating: 0x41, count: 180)

    /// The sRGB colour lcms2 computes for `rgb` (0xRRGGBB) in the profile at `path`.
    public static func sRGB(of rgb: UInt32, inProfile path: String) throws -> UInt32 {
        guard let source = cmsOpenProfileFromFile(path, "r"), let target = cmsCreate_sRGBProfile() else {
            throw FixtureError("lcms2 cannot open \(path)")
        }
        defer { cmsCloseProfile(source); cmsCloseProfile(target) }
        guard let t = cmsCreateTransform(source, mv_lcms_type_rgba_8(), target, mv_lcms_type_rgba_8(),
                                         cmsUInt32Number(INTENT_PERCEPTUAL), 0) else {
            throw FixtureError("lcms2 cannot convert from \(path)")
        }
        defer { cmsDeleteTransform(t) }
        var pixel: [UInt8] = [UInt8(rgb >> 16 & 0xFF), UInt8(rgb >> 8 & 0xFF), UInt8(rgb & 0xFF), 255]
        var out: [UInt8] = [0, 0, 0, 0]
        cmsDoTransform(t, &pixel, &out, 1)
        return UInt32(out[0]) << 16 | UInt32(out[1]) << 8 | UInt32(out[2])
    }

    /// `jpeg` (a file's bytes) with an APP2 ICC_PROFILE marker holding `icc` right after SOI.
    public static func jpeg(_ jpeg: Data, withICC icc: [UInt8]) -> Data {
        var marker: [UInt8] = [0xFF, 0xE2]
        let length = 2 + 12 + 2 + icc.count
        marker += [UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE".utf8) + [0, 1, 1] + icc
        var out = Data(jpeg.prefix(2))
        out.append(contentsOf: marker)
        out.append(jpeg.dropFirst(2))
        return out
    }
}

extension ColourProfiles {
    /// The colour lcms2 computes for sRGB `rgb` (0xRRGGBB) on a display with the profile at `path`.
    public static func display(_ rgb: UInt32, withProfile path: String) throws -> UInt32 {
        guard let source = cmsCreate_sRGBProfile(), let target = cmsOpenProfileFromFile(path, "r") else {
            throw FixtureError("lcms2 cannot open \(path)")
        }
        defer { cmsCloseProfile(source); cmsCloseProfile(target) }
        guard let t = cmsCreateTransform(source, mv_lcms_type_rgba_8(), target, mv_lcms_type_rgba_8(),
                                         cmsUInt32Number(INTENT_PERCEPTUAL), 0) else {
            throw FixtureError("lcms2 cannot convert to \(path)")
        }
        defer { cmsDeleteTransform(t) }
        var pixel: [UInt8] = [UInt8(rgb >> 16 & 0xFF), UInt8(rgb >> 8 & 0xFF), UInt8(rgb & 0xFF), 255]
        var out: [UInt8] = [0, 0, 0, 0]
        cmsDoTransform(t, &pixel, &out, 1)
        return UInt32(out[0]) << 16 | UInt32(out[1]) << 8 | UInt32(out[2])
    }
}
