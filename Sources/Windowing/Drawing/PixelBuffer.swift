/// A borrowed view of 32-bit BGRX pixels: the memory of an SHM image, or any other buffer.
///
/// This is the plain description that crosses module borders: Playback converts frames
/// into one, Windowing draws overlays into one and blits it. It does not own its memory;
/// whoever hands it out keeps the memory alive for as long as the view is used.
public struct PixelBuffer: @unchecked Sendable {
    // @unchecked: a raw pointer is not Sendable; the owner of the memory guarantees that
    // only one thread writes through a given PixelBuffer at a time.

    /// First byte of the top-left pixel.
    public var base: UnsafeMutableRawPointer
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes from one row to the next (at least `width * 4`).
    public var stride: Int

    /// What the frame drawn now marks as not black, when its surface keeps track; nil
    /// for memory nobody sends to a window piecemeal.
    public var ink: Ink?
    /// Where the memory may still hold something other than black from an earlier frame:
    /// all of it unless the surface handing it out knows better.
    public var earlierInk: Rect

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        earlierInk = Rect(x: 0, y: 0, width: width, height: height)
    }

    /// Notes that `rect` now holds something other than black (drawing through a `Canvas`
    /// does so itself; a scaler writing the pixels directly does not).
    public func mark(_ rect: Rect) {
        ink?.mark(rect.intersection(Rect(x: 0, y: 0, width: width, height: height)))
    }

    /// Makes everything outside `keep` black, touching only what an earlier frame may have
    /// left there: the bars around a picture, or the whole view when `keep` is nil.
    public func blacken(outside keep: Rect?) {
        let e = earlierInk.intersection(Rect(x: 0, y: 0, width: width, height: height))
        guard !e.isEmpty else { return }
        guard let keep else { return fill(x: e.x, y: e.y, width: e.width, height: e.height, color: 0) }
        let k = keep.intersection(e)
        guard !k.isEmpty else { return fill(x: e.x, y: e.y, width: e.width, height: e.height, color: 0) }
        fill(x: e.x, y: e.y, width: e.width, height: k.y - e.y, color: 0)
        fill(x: e.x, y: k.maxY, width: e.width, height: e.maxY - k.maxY, color: 0)
        fill(x: e.x, y: k.y, width: k.x - e.x, height: k.height, color: 0)
        fill(x: k.maxX, y: k.y, width: e.maxX - k.maxX, height: k.height, color: 0)
    }

    /// Pointer to the first pixel of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y * stride).assumingMemoryBound(to: UInt32.self)
    }

    /// Reads one pixel as 0xXXRRGGBB.
    public func pixel(x: Int, y: Int) -> UInt32 { row(y)[x] }

    /// Fills a rectangle (clipped to the buffer) with an opaque colour 0xRRGGBB.
    public func fill(x: Int, y: Int, width w: Int, height h: Int, color: UInt32) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x1 > x0, y1 > y0 else { return }
        if color & 0xFF_FFFF != 0 { ink?.mark(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) }
        for yy in y0..<y1 {
            let r = row(yy)
            for xx in x0..<x1 { r[xx] = color }
        }
    }

    /// Fills the whole buffer with an opaque colour 0xRRGGBB.
    public func clear(color: UInt32 = 0) { fill(x: 0, y: 0, width: width, height: height, color: color) }
}
