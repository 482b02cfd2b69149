import CFFmpeg

extension VideoFrame {
    /// Copies a BGR0 picture unscaled into `target` with its corner at (x, y), clipped to
    /// the target; false for any other format (nothing is drawn then).
    ///
    /// A zoomed photo's detail shown 1:1 needs no scaling, and swscale's unscaled copy
    /// cannot take a picture cropped to what is visible: it copies whole strides, reading
    /// past the crop's rows and writing past the rectangle.
    public func copy(into target: ImageTarget, x: Int, y: Int) -> Bool {
        let f = frame.raw.pointee
        guard f.format == AV_PIX_FMT_BGR0.rawValue, let src = f.data.0 else { return false }
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(target.width, x + width), y1 = min(target.height, y + height)
        guard x1 > x0, y1 > y0 else { return true }
        let stride = Int(f.linesize.0)
        for row in y0..<y1 {
            let from = src + (row - y) * stride + (x0 - x) * 4
            (target.base + row * target.stride + x0 * 4).copyMemory(from: from, byteCount: (x1 - x0) * 4)
        }
        return true
    }
}
