/// The EXIF orientation of a JPEG photo, as the turn that shows it upright.
///
/// Cameras and phones store the sensor's pixels as they come and say in EXIF's Orientation
/// tag (0x0112) how to turn them; FFmpeg 5.1 does not apply it to stills, so a portrait
/// photo would lie on its side. Only the rotation is applied: the mirrored orientations
/// (2, 4, 5, 7, rare outside front cameras) keep their turn but not their flip.
/// Every read is bounds-checked: the bytes are whatever the file holds.
public enum JPEGOrientation {
    /// Clockwise degrees (0, 90, 180, 270) for the JPEG file in `bytes`; 0 without EXIF.
    public static func rotation(ofJPEG bytes: UnsafeRawBufferPointer) -> Int {
        guard let orientation = orientation(ofJPEG: bytes) else { return 0 }
        switch orientation {
        case 3, 4: return 180
        case 6, 7: return 90
        case 5, 8: return 270
        default: return 0
        }
    }

    /// The raw Orientation value (1...8) of the first APP1 Exif segment, if any.
    public static func orientation(ofJPEG b: UnsafeRawBufferPointer) -> Int? {
        guard let exif = ExifBlock(jpeg: b), let ifd0 = exif.ifd0,
              let v = exif.value(of: 0x0112, inIFDAt: ifd0), (1...8).contains(v) else { return nil }
        return v
    }
}
