import Glibc

/// Tiny pictures (icons, pixel art, a 1x1 PNG) blown up to fill a window.
///
/// swscale has no fast path for a source a few pixels wide: filling 720x720 from a 1x1 PNG
/// took 19 million instructions with any of its filters, more than decoding the file. Each
/// source pixel becomes a block instead, which is also how image viewers show pixels at a
/// high zoom: crisp, not smeared.
extension Scaler {
    /// Converts the picture at its own size, then copies each pixel into its block: one
    /// conversion of a few pixels and a pass of row copies over the destination.
    func magnify(_ frame: VideoFrame, into dst: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int) {
        let sw = frame.width, sh = frame.height
        guard sw > 0, sh > 0, width > 0, height > 0 else { return }
        let small = UnsafeMutableRawPointer.allocate(byteCount: sw * sh * 4, alignment: 64)
        defer { small.deallocate() }
        scale(frame, into: small, stride: sw * 4, width: sw, height: sh, quality: .best)
        let source = small.assumingMemoryBound(to: UInt32.self)
        let columns = (0..<width).map { $0 * sw / width }
        var lastRow = -1
        columns.withUnsafeBufferPointer { column in
            for y in 0..<height {
                let row = dst + y * stride
                let sy = y * sh / height
                if sy == lastRow {
                    // The same source row as the line above: copy that line whole.
                    memcpy(row, row - stride, width * 4)
                    continue
                }
                let out = row.assumingMemoryBound(to: UInt32.self)
                let line = source + sy * sw
                for x in 0..<width { out[x] = line[column[x]] }
                lastRow = sy
            }
        }
    }
}
