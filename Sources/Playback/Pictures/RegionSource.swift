import MediaCore

/// A JPEG too large to hold whole, from which the pieces a zoomed view shows are decoded:
/// here (`JPEGRegions`) or in a sandboxed worker (`SandboxedRegions`).
public protocol RegionSource: Sendable {
    /// The stored width in pixels.
    var width: Int { get }
    /// The stored height in pixels.
    var height: Int { get }
    /// The tiles of a grid of `side`-pixel squares over the picture at `level` halvings,
    /// rows `rows` and columns `columns`, decoded in one pass, each its own picture, row by
    /// row; in the colours of the display with `displayProfile` (nil: sRGB).
    func tiles(level: Int, rows: ClosedRange<Int>, columns: ClosedRange<Int>, side: Int,
               displayProfile: [UInt8]?) throws(AVError) -> [[VideoFrame]]
}

extension RegionSource {
    /// The picture's size at `level` halvings (0...3), as libjpeg rounds it: up.
    public func size(level: Int) -> (width: Int, height: Int) {
        let d = 1 << max(0, min(level, 3))
        return ((width + d - 1) / d, (height + d - 1) / d)
    }
}

/// A source that decodes any tile-aligned piece of one level as one picture: what a worker
/// answers a zoom's request with.
protocol BandSource {
    /// The pixels `width` x `height` at (x, y) of the picture at `level` halvings, in the
    /// colours of the display with `displayProfile` (nil: sRGB).
    func band(level: Int, x: Int, y: Int, width: Int, height: Int, displayProfile: [UInt8]?) throws(AVError) -> Frame
}
