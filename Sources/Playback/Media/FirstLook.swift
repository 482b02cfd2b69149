/// A photo's small picture, shown the moment a user steps onto it while the photo itself
/// still decodes: the camera's own thumbnail from its EXIF block, else an eighth-size decode.
/// It is blurred, so it counts as a stand-in, never as the picture being shown.
public struct FirstLook: Sendable {
    /// The small picture, with the photo's EXIF turn to show it upright.
    public let frame: VideoFrame
    /// The photo's own size, upright: where the small picture is drawn, so the sharp one
    /// replaces it in the same place.
    public let width: Int
    public let height: Int
}

extension FirstLook {
    /// Which small pictures a player may make for a photo's first look.
    public enum Allowed: Sendable {
        /// None: nobody waits for this picture (a zoomed still's full size, a thumbnail).
        case none
        /// Only the camera's own thumbnail, a millisecond's work: for a photo opened ahead,
        /// whose full decode usually ends before the user steps onto it.
        case cameraThumbnail
        /// The camera's thumbnail, else the photo decoded at an eighth of each side, which
        /// costs about half of its full decode again: for a photo the user is waiting for.
        case thumbnailOrEighth
    }
}
