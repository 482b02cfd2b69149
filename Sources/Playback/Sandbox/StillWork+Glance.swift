import MediaCore

/// The small picture of a JPEG photo, made in a few milliseconds so the viewer can show
/// something the moment the user steps onto a photo whose full decode takes a fifth of a
/// second or more.
extension StillWork {
    /// The photo's first look: the camera's embedded thumbnail when it has one of the
    /// photo's shape, else (when `allowed` says so) the photo decoded at an eighth of each
    /// side (libjpeg reads only the DC coefficients). Nil when `bytes` is not a JPEG, when
    /// neither works, or when the photo itself is decoded at a reduced size for `target`.
    /// Said nothing of: a photo without one simply shows when decoded.
    ///
    /// The eighth is made only for a photo decoded at its full size. At a half or a quarter
    /// most of libjpeg's work is reading the entropy-coded data, which the eighth reads too:
    /// for a 24 MP photo, 53 ms of a core for the eighth against 59 ms for the quarter and
    /// 66 ms for the half. The blurred picture would flash up only a few milliseconds before
    /// the sharp one, and its decode and drawing would take that time from it.
    public static func glance(_ bytes: [UInt8], name: String, target: (width: Int, height: Int)?, maxPixels: Int,
                              displayProfile: [UInt8]?, allowed: FirstLook.Allowed) -> Result? {
        bytes.withUnsafeBytes {
            glance($0, name: name, target: target, maxPixels: maxPixels, displayProfile: displayProfile, allowed: allowed)
        }
    }

    /// `glance` of bytes held elsewhere: a worker reads the request's memfd where it is mapped.
    public static func glance(_ raw: UnsafeRawBufferPointer, name: String, target: (width: Int, height: Int)?,
                              maxPixels: Int, displayProfile: [UInt8]?, allowed: FirstLook.Allowed) -> Result? {
        guard allowed != .none else { return nil }
        guard raw.starts(with: [0xFF, 0xD8, 0xFF]) else { return nil }
        let look = { () -> (frame: Frame, rotation: Int, stored: (width: Int, height: Int))? in
            guard let stored = try? JPEGStill.storedSize(raw), stored.width > 0, stored.height > 0 else { return nil }
            let rotation = JPEGOrientation.rotation(ofJPEG: raw)
            if let frame = embedded(raw, stored: stored) { return (frame, rotation, stored) }
            guard allowed == .thumbnailOrEighth, reduction(stored: stored, target: target) == 0,
                  let frame = try? JPEGStill(lowres: 3, maxPixels: maxPixels).decode(raw) else { return nil }
            return (frame, rotation, stored)
        }()
        guard let look else { return nil }
        let colour = PictureColour(displayProfile: displayProfile, name: name, quiet: true)
        return Result(frame: colour.manage(look.frame), rotation: look.rotation, stored: look.stored,
                      formatName: "jpeg_pipe", codec: "mjpeg")
    }

    /// The embedded thumbnail decoded, when it is a JPEG of the photo's shape (a 4:3
    /// thumbnail of a 3:2 photo has black bars, which would flash on screen).
    private static func embedded(_ raw: UnsafeRawBufferPointer, stored: (width: Int, height: Int)) -> Frame? {
        guard let range = EmbeddedThumbnail.range(inJPEG: raw) else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: raw[range])
        guard let small = try? JPEGStill.storedSize(bytes), small.width * small.height <= ThumbnailMaker.embeddedMaxPixels,
              ThumbnailMaker.sameShape(stored, small) else { return nil }
        return try? JPEGStill(lowres: 0, maxPixels: ThumbnailMaker.embeddedMaxPixels).decode(bytes)
    }
}
