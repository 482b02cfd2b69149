import CFFmpeg
import FoundationEssentials
import Glibc
import MediaCore

/// A picture decoded by its own library rather than FFmpeg: AVIF (libavif), HEIC
/// (libheif), animated JPEG XL (libjxl), SVG (librsvg) and animated WebP (libwebp).
///
/// Each hands the player RGBA or BGRA AVFrames with start times and durations, as FFmpeg's
/// decoders would, so everything after the decoder stays the same; a still is one frame,
/// an animation several and loops by `rewind()`.
protocol PictureSource: AnyObject {
    /// What the picture is: a still (`.image`) or an animation, its shown size and rotation.
    var info: MediaInfo { get }
    /// The next frame with its start and duration in seconds; nil after the last.
    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)?
    /// Back to the first frame (a loop).
    func rewind()
    /// Whether a failed `next()` ends the item, not only the animation: true once the
    /// decoder itself is gone.
    var endsItemOnFailure: Bool { get }
}

extension PictureSource {
    var endsItemOnFailure: Bool { false }
}
