import Playback
import Web
import Windowing

extension RGBAImage {
    /// The picture in an image file (PNG, JPEG, WebP, GIF's first frame, and whatever else
    /// the decoder reads), as UIImage's `init?(contentsOfFile:)`; nil when it cannot be
    /// read or is larger than 4096 x 4096, which no indicator or thumbnail needs.
    public init?(contentsOfFile path: String) {
        guard case .success(let url) = MediaView.resolve(path) else { return nil }
        var o = SourceOptions()
        o.maxPixels = 4096 * 4096
        guard let p = try? StillDecoder.decodeRGBA(url: url, options: o) else { return nil }
        self.init(width: p.width, height: p.height, pixels: p.pixels)
    }
}
