import Playback
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

extension Color {
    /// Pure red, as `themeColor = .red`.
    public static let red = Color(rgb: 0xFF0000)
    /// Green, as CSS names it (half intensity).
    public static let green = Color(rgb: 0x008000)
    /// Pure blue.
    public static let blue = Color(rgb: 0x0000FF)
    /// Yellow.
    public static let yellow = Color(rgb: 0xFFFF00)
    /// Orange.
    public static let orange = Color(rgb: 0xFFA500)
    /// Purple.
    public static let purple = Color(rgb: 0x800080)
    /// Cyan.
    public static let cyan = Color(rgb: 0x00FFFF)
    /// Magenta.
    public static let magenta = Color(rgb: 0xFF00FF)
    /// Mid grey.
    public static let gray = Color(rgb: 0x808080)
    /// Pink.
    public static let pink = Color(rgb: 0xFFC0CB)
}
