/// An owned RGBA image, 8 bits a channel, stored with **premultiplied** alpha.
///
/// Custom indicator icons (play, fail, music, close) are decoded elsewhere into one of
/// these and scaled onto the canvas every frame. Storing premultiplied colour makes the
/// bilinear filter in `Canvas.blit` correct at transparent edges (straight alpha would
/// bleed the invisible pixels' colour, usually black, into a dark fringe) and turns the
/// blend into one multiply-add. Decoders hand out straight alpha, so the main initialiser
/// converts by default.
///
/// Layout: row-major, top row first, 4 bytes per pixel in the order R, G, B, A, no padding
/// (`width * 4` bytes a row).
public struct RGBAImage: Sendable, Equatable {
    /// Width in pixels, at least 1.
    public let width: Int
    /// Height in pixels, at least 1.
    public let height: Int
    /// Premultiplied R, G, B, A bytes, `width * height * 4` of them.
    public let pixels: [UInt8]

    /// Wraps decoded pixels; nil when a dimension is not positive or the byte count is not
    /// `width * height * 4`.
    ///
    /// - Parameter premultiplied: whether `pixels` already carry premultiplied colour. Pass
    ///   false (the default) for the straight alpha that PNG decoders and FFmpeg's RGBA
    ///   output produce; they are converted once here, not per frame.
    public init?(width: Int, height: Int, pixels: [UInt8], premultiplied: Bool = false) {
        guard width > 0, height > 0,
              width.multipliedReportingOverflow(by: height * 4).overflow == false,
              pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        if premultiplied {
            self.pixels = pixels
        } else {
            var p = pixels
            p.withUnsafeMutableBufferPointer { buf in
                var i = 0
                while i < buf.count {
                    let a = UInt32(buf[i + 3])
                    if a != 255 {
                        buf[i] = UInt8(Canvas.div255(UInt32(buf[i]) * a))
                        buf[i + 1] = UInt8(Canvas.div255(UInt32(buf[i + 1]) * a))
                        buf[i + 2] = UInt8(Canvas.div255(UInt32(buf[i + 2]) * a))
                    }
                    i += 4
                }
            }
            self.pixels = p
        }
    }

    /// An image of one colour; handy for tests and placeholder icons.
    public init(width: Int, height: Int, color: Color) {
        precondition(width > 0 && height > 0, "RGBAImage needs a positive size")
        self.width = width
        self.height = height
        let a = UInt32(color.a)
        let px: [UInt8] = [
            UInt8(Canvas.div255(UInt32(color.r) * a)), UInt8(Canvas.div255(UInt32(color.g) * a)),
            UInt8(Canvas.div255(UInt32(color.b) * a)), color.a,
        ]
        var p = [UInt8]()
        p.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) { p.append(contentsOf: px) }
        self.pixels = p
    }

    /// The pixel at `(x, y)` with alpha un-premultiplied back to a straight `Color`.
    ///
    /// Colour precision is lost where alpha is small; that is inherent to premultiplication.
    public func color(x: Int, y: Int) -> Color {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the image")
        let i = (y * width + x) * 4
        let a = pixels[i + 3]
        guard a != 0 else { return .clear }
        func straight(_ c: UInt8) -> UInt8 {
            UInt8(min(255, (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a)))
        }
        return Color(r: straight(pixels[i]), g: straight(pixels[i + 1]), b: straight(pixels[i + 2]), a: a)
    }

    /// True when every pixel is fully opaque, which lets callers skip drawing what is behind.
    public var isOpaque: Bool {
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return false }
            i += 4
        }
        return true
    }
}
