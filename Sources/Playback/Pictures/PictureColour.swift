import CFFmpeg
import MediaCore

/// Colour management for one player's pictures: from the colours a picture says it has (an
/// embedded ICC profile, an nclx box, or none: sRGB) to the display's profile.
///
/// A photo from a wide-gamut camera or a picture saved with a printer's profile shows its
/// real colours only converted; shown raw, its reds and greens are dull or wrong. An
/// untagged picture on a display without a profile is left as it is (both are sRGB), which
/// is most pictures on most desktops and costs nothing.
final class PictureColour {
    /// Where the colours come from.
    enum Source {
        /// Untagged: sRGB, as browsers take it.
        case sRGB
        /// An embedded ICC profile.
        case icc([UInt8])
        /// A profile already made (AVIF's and HEIC's nclx primaries).
        case profile(ColourProfile)
    }

    private let display: ColourProfile?
    private let name: String
    /// What the last transform was made for: an animation's frames share one profile.
    private enum Key: Equatable {
        case sRGB
        case icc([UInt8])
        case profile(ObjectIdentifier)
    }
    private var cached: (key: Key, transform: ColourTransform?)?
    private var warned = false

    /// `displayProfile`: the display's ICC bytes, nil for an sRGB display; `name` is what the
    /// one warning about a damaged profile calls the picture. A stand-in for a picture (its
    /// first look, a part of it while it downloads) is `quiet`: the picture itself says it,
    /// once, and the user read the line twice.
    init(displayProfile: [UInt8]?, name: String, quiet: Bool = false) {
        self.name = name
        warned = quiet
        guard let bytes = displayProfile else { display = nil; return }
        if let p = ColourProfile(icc: bytes), p.isRGB {
            display = p
        } else {
            display = nil
            DisplayProfileWarning.once()
        }
    }

    /// Converts the RGBA pixels of `frame` in place from `source` to the display.
    func convert(rgba frame: Frame, from source: Source) {
        guard let t = transform(for: source), let base = frame.raw.pointee.data.0 else { return }
        t.apply(base, width: Int(frame.raw.pointee.width), height: Int(frame.raw.pointee.height),
                stride: Int(frame.raw.pointee.linesize.0))
    }

    /// An FFmpeg or libjpeg picture with its ICC profile (if any) in its side data: the same
    /// frame when nothing is to be converted, else an RGBA copy in the display's colours.
    func manage(_ frame: Frame) -> Frame {
        var source = Source.sRGB
        if let sd = av_frame_get_side_data(frame.raw, AV_FRAME_DATA_ICC_PROFILE), sd.pointee.size > 0 {
            source = .icc(Array(UnsafeBufferPointer(start: sd.pointee.data, count: Int(sd.pointee.size))))
        }
        guard transform(for: source) != nil, let rgba = PictureColour.rgbaCopy(of: frame) else { return frame }
        convert(rgba: rgba, from: source)
        return rgba
    }

    /// The transform from `source` to the display, nil when there is nothing to do or it
    /// cannot be done (then the picture shows unconverted, after one warning).
    private func transform(for source: Source) -> ColourTransform? {
        switch source {
        case .sRGB:
            guard let display else { return nil }
            return cachedTransform(key: .sRGB) { ColourProfile.sRGB().flatMap { ColourTransform(from: $0, to: display) } }
        case .profile(let p):
            // The source keeps its profile for its life, so its identity names it.
            return cachedTransform(key: .profile(ObjectIdentifier(p))) { PictureColour.join(p, display) }
        case .icc(let bytes):
            return cachedTransform(key: .icc(bytes)) { [self] in
                guard let p = ColourProfile(icc: bytes) else {
                    warn("its colour profile is damaged; shown without colour conversion")
                    return nil
                }
                // A grey profile on a grey JPEG: the decoder gave RGB, and grey stays grey.
                guard p.isRGB else { return nil }
                return PictureColour.join(p, display)
            }
        }
    }

    private func cachedTransform(key: Key, _ make: () -> ColourTransform?) -> ColourTransform? {
        if let c = cached, c.key == key { return c.transform }
        let t = make()
        cached = (key, t)
        return t
    }

    private static func join(_ source: ColourProfile, _ display: ColourProfile?) -> ColourTransform? {
        guard let target = display ?? ColourProfile.sRGB() else { return nil }
        return ColourTransform(from: source, to: target)
    }

    private func warn(_ why: String) {
        guard !warned else { return }
        warned = true
        StandardError.write("mediaview: \(name): \(why)")
    }

    /// The picture converted to RGBA at its own size, timestamps and side data kept.
    static func rgbaCopy(of frame: Frame) -> Frame? {
        let f = frame.raw
        let w = f.pointee.width, h = f.pointee.height
        guard w > 0, h > 0 else { return nil }
        let out = Frame()
        let o = out.raw
        o.pointee.format = AV_PIX_FMT_RGBA.rawValue
        o.pointee.width = w
        o.pointee.height = h
        guard av_frame_get_buffer(o, 0) >= 0, av_frame_copy_props(o, f) >= 0 else { return nil }
        guard let sws = sws_getContext(w, h, AVPixelFormat(rawValue: f.pointee.format), w, h, AV_PIX_FMT_RGBA,
                                       SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil)
        else { return nil }
        defer { sws_freeContext(sws) }
        let done = withUnsafePointer(to: &f.pointee.data) { src in
            withUnsafePointer(to: &f.pointee.linesize) { srcStride in
                withUnsafeMutablePointer(to: &o.pointee.data) { dst in
                    withUnsafePointer(to: &o.pointee.linesize) { dstStride in
                        src.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { s in
                            srcStride.withMemoryRebound(to: Int32.self, capacity: 8) { ss in
                                dst.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { d in
                                    dstStride.withMemoryRebound(to: Int32.self, capacity: 8) { ds in
                                        sws_scale(sws, s, ss, 0, h, d, ds)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return done > 0 ? out : nil
    }
}

/// Says once per process that the display's profile could not be used.
enum DisplayProfileWarning {
    private static let said = Locked(false)

    static func once() {
        let first = said.withLock { done -> Bool in defer { done = true }; return !done }
        if first { StandardError.write("mediaview: the display's colour profile (_ICC_PROFILE) is damaged; colours are shown as sRGB") }
    }
}
