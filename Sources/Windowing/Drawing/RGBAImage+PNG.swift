import CPNG
import Glibc

extension RGBAImage {
    /// The picture in a PNG file an app ships (its own icons), read with libpng, which is
    /// loaded on this first call; nil when the file cannot be read as a PNG or a side is over
    /// 1024 pixels. Pictures a user names go through the player's decoders instead.
    public init?(pngFile path: String) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        guard let pixels = mv_png_read_rgba(path, 1024, &width, &height) else { return nil }
        defer { free(pixels) }
        let count = Int(width) * Int(height) * 4
        self.init(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }
}
