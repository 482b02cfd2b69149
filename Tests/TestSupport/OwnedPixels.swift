import Windowing

/// An owned pixel buffer for one test, freed when the test drops it: what the drawing
/// tests draw into and read back.
public final class OwnedPixels {
    public let width: Int
    public let height: Int
    let memory: UnsafeMutableRawPointer

    /// A `width` x `height` buffer filled with `fill` (0xXXRRGGBB).
    public init(width: Int, height: Int, fill: UInt32 = 0) {
        self.width = width
        self.height = height
        memory = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 16)
        buffer.clear(color: fill)
    }

    deinit { memory.deallocate() }

    /// The pixels as a buffer to draw into.
    public var buffer: PixelBuffer { PixelBuffer(base: memory, width: width, height: height, stride: width * 4) }
    /// A canvas over the whole buffer.
    public var canvas: Canvas { Canvas(buffer: buffer) }

    /// The pixel as 0xRRGGBB (padding byte dropped).
    public func px(_ x: Int, _ y: Int) -> UInt32 { buffer.pixel(x: x, y: y) & 0xFF_FFFF }

    /// Pixels (x, y) for which `test` holds.
    public func pixels(where test: (Int, Int, UInt32) -> Bool) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        for y in 0..<height { for x in 0..<width where test(x, y, px(x, y)) { out.append((x, y)) } }
        return out
    }
}
