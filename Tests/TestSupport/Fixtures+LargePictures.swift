import Foundation

/// PNGs and TIFFs in the layouts people have them in, for the path that reads a picture too
/// large to hold whole a few rows at a time. They are small (2001 x 1001, odd on purpose so
/// every halving has an edge), and made "too large" with a small pixel budget: the path is
/// the same, and a fixture of 200 MP would take a minute to encode.
extension Fixtures {
    /// One layout: its file name, and how it is written.
    public struct LargeLayout: Sendable, CustomStringConvertible {
        public let name: String
        /// How exactly the reference should match: 0, or 1 for 16-bit samples (we keep the
        /// high byte, swscale rounds).
        public let tolerance: Int
        /// Whether the reference is FFmpeg reading this file (its own layout) or the source
        /// PNG it was written from without loss (FFmpeg reads neither BigTIFF nor every
        /// tiled TIFF).
        public let ownReference: Bool
        let make: @Sendable () throws -> String
        public var description: String { name }

        /// Writes the fixture (once a run) and returns its path.
        public func path() throws -> String { try make() }

        /// The file whose FFmpeg decode is what this one must show.
        public func reference() throws -> String { ownReference ? try path() : try largeSource() }
    }

    /// The source of every layout: a test card with grain, 2001 x 1001, 8-bit RGB.
    public static func largeSource() throws -> String {
        try make("large-src-2001x1001.png", ["-f", "lavfi", "-i", "testsrc2=s=2002x1002", "-vf", "format=rgb24,crop=2001:1001:0:0,noise=alls=20:allf=u",
                                             "-frames:v", "1", "-pix_fmt", "rgb24"])
    }

    private static func ffmpegLayout(_ name: String, tolerance: Int = 0, _ args: [String]) -> LargeLayout {
        LargeLayout(name: name, tolerance: tolerance, ownReference: true) {
            try make(name, ["-i", try largeSource(), "-frames:v", "1"] + args)
        }
    }

    private static func magickLayout(_ name: String, _ args: [String], prefix: String = "", ownReference: Bool = false,
                                     tolerance: Int = 0) -> LargeLayout {
        LargeLayout(name: name, tolerance: tolerance, ownReference: ownReference) {
            // Made first: `tool` holds the fixtures' lock while it runs.
            let source = try largeSource()
            return try tool(name, "convert") { out in [source] + args + [prefix + out] }
        }
    }

    /// PNG: 8-bit RGB, RGBA with half alpha, 16-bit grey, a palette (FFmpeg's, which filters no
    /// row); libpng's in RGB, in grey with alpha, and in 16-bit RGB and RGBA.
    public static let largePNGs: [LargeLayout] = [
        ffmpegLayout("large-rgb.png", ["-pix_fmt", "rgb24"]),
        ffmpegLayout("large-rgba.png", ["-vf", "format=rgba,colorchannelmixer=aa=0.5", "-pix_fmt", "rgba"]),
        ffmpegLayout("large-grey16.png", tolerance: 1, ["-pix_fmt", "gray16be"]),
        ffmpegLayout("large-palette.png", ["-pix_fmt", "pal8"]),
        // libpng's own writer, as most programs save a PNG: a filter chosen for each row.
        magickLayout("large-magick-rgb.png", [], prefix: "PNG24:"),
        magickLayout("large-magick-grey-alpha.png", ["-colorspace", "gray", "-alpha", "set", "-channel", "A", "-evaluate", "set", "60%",
                                                     "+channel", "-define", "png:color-type=4"], ownReference: true),
        // 16 bits a sample, as scanners write them: RGB (the source's values widened), and
        // RGBA with alpha, against FFmpeg's own reading (swscale rounds).
        magickLayout("large-magick-rgb48.png", [], prefix: "PNG48:"),
        magickLayout("large-magick-rgba64.png", ["-alpha", "set", "-channel", "A", "-evaluate", "set", "60%", "+channel"],
                     prefix: "PNG64:", ownReference: true, tolerance: 1),
    ]

    /// TIFF: FFmpeg's (one strip, deflate) in RGB, 16-bit RGB and grey; ImageMagick's in
    /// strips with LZW, in 256-pixel tiles, as BigTIFF, and in deflated strips with the
    /// horizontal predictor.
    public static let largeTIFFs: [LargeLayout] = [
        ffmpegLayout("large-rgb-deflate.tif", ["-pix_fmt", "rgb24", "-compression_algo", "deflate"]),
        ffmpegLayout("large-rgb48.tif", tolerance: 1, ["-pix_fmt", "rgb48le", "-compression_algo", "packbits"]),
        ffmpegLayout("large-grey.tif", ["-pix_fmt", "gray", "-compression_algo", "lzw"]),
        magickLayout("large-strips-lzw.tif", ["-compress", "lzw"]),
        magickLayout("large-tiles.tif", ["-compress", "zip", "-define", "tiff:tile-geometry=256x256"]),
        magickLayout("large-bigtiff.tif", ["-compress", "none"], prefix: "TIFF64:"),
        magickLayout("large-strips-predictor.tif", ["-compress", "zip", "-define", "tiff:predictor=2"]),
    ]

    /// The source as a PNG with Adam7 interlacing, which cannot be read a row at a time.
    public static func largeInterlacedPNG() throws -> String {
        let source = try largeSource()
        return try tool("large-interlaced.png", "convert") { out in [source, "-interlace", "PNG", "PNG24:" + out] }
    }

    /// The `w` x `h` pixels at (x, y) of 4-byte `pixels` `width` wide, rows packed.
    public static func crop(_ pixels: [UInt8], width: Int, x: Int, y: Int, w: Int, h: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(w * h * 4)
        for row in y..<(y + h) {
            let start = (row * width + x) * 4
            out += pixels[start..<(start + w * 4)]
        }
        return out
    }

    /// The picture of `path` as FFmpeg decodes it: RGBA bytes, rows packed.
    public static func ffmpegRGBA(_ path: String, width: Int, height: Int) throws -> [UInt8] {
        var out = try ffmpegBGRA(path, filter: "null", width: width, height: height)
        out.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) { (p[i], p[i + 2]) = (p[i + 2], p[i]) }
        }
        return out
    }
}
