import CFFmpeg

/// A decoded picture with its presentation time, ready to be scaled into a window.
///
/// Frames cross from the decode thread to the main thread through the frame queue and are
/// read-only afterwards.
public final class VideoFrame: @unchecked Sendable {
    // @unchecked: immutable after the decode thread hands it over.
    let frame: Frame
    /// Presentation time in seconds.
    public let pts: Double
    /// How long it stays on screen when nothing else says (next frame's pts wins).
    public let duration: Double
    /// The seek generation it belongs to; frames of an older one are stale.
    public let serial: Int
    /// Clockwise rotation needed to show it upright (0, 90, 180, 270), from the stream's
    /// display matrix.
    public let rotation: Int

    init(frame: Frame, pts: Double, duration: Double, serial: Int, rotation: Int) {
        self.frame = frame
        self.pts = pts
        self.duration = duration
        self.serial = serial
        self.rotation = rotation
    }

    /// Coded width in pixels.
    public var width: Int { Int(frame.raw.pointee.width) }
    /// Coded height in pixels.
    public var height: Int { Int(frame.raw.pointee.height) }

    /// Size to show it at: sample aspect ratio applied, rotation applied.
    public var displaySize: (width: Int, height: Int) {
        var w = Double(width)
        let sar = frame.raw.pointee.sample_aspect_ratio
        if sar.num > 0 && sar.den > 0 && sar.num != sar.den { w = w * Double(sar.num) / Double(sar.den) }
        let dw = max(1, Int(w.rounded()))
        return rotation % 180 == 0 ? (dw, height) : (height, dw)
    }

    /// The pixel format's name, for diagnostics.
    public var pixelFormatName: String {
        guard let n = av_get_pix_fmt_name(AVPixelFormat(rawValue: frame.raw.pointee.format)) else { return "unknown" }
        return String(cString: n)
    }

    /// Mean colour of the frame after conversion to RGB, for tests and probes.
    public func averageColor() -> (r: Double, g: Double, b: Double) {
        let w = min(width, 64), h = min(height, 64)
        var pixels = [UInt32](repeating: 0, count: w * h)
        let scaler = Scaler()
        pixels.withUnsafeMutableBytes { raw in
            let target = ImageTarget(base: raw.baseAddress!, width: w, height: h, stride: w * 4)
            scaler.render(self, into: target, rect: PixelRect(x: 0, y: 0, width: w, height: h), quality: .fast, rotation: 0)
        }
        var r = 0.0, g = 0.0, b = 0.0
        for p in pixels {
            r += Double((p >> 16) & 0xFF); g += Double((p >> 8) & 0xFF); b += Double(p & 0xFF)
        }
        let n = Double(pixels.count)
        return (r / n, g / n, b / n)
    }
}

/// Where a frame is converted to: 32-bit BGRX memory (an SHM image, usually).
///
/// The same shape as Windowing's `PixelBuffer`, kept separate so that Playback knows
/// nothing of windows; Viewer passes one to the other.
public struct ImageTarget: @unchecked Sendable {
    // @unchecked: a raw pointer; its owner makes sure one thread writes at a time.
    public var base: UnsafeMutableRawPointer
    public var width: Int
    public var height: Int
    public var stride: Int

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }
}

/// An integer rectangle inside an `ImageTarget`.
public struct PixelRect: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}
