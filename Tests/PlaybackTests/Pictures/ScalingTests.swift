import CFFmpeg
import Testing
@testable import Playback

/// Pictures shown much smaller or much larger than they are: what the window shows.
@Suite struct ScalingTests {
    /// A 4:2:0 frame whose luma and chroma come from the given functions of (x, y).
    func yuvFrame(width: Int, height: Int, y luma: (Int, Int) -> UInt8,
                  uv: (Int, Int) -> (UInt8, UInt8)) throws -> VideoFrame {
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        try #require(av_frame_get_buffer(f, 0) >= 0)
        for y in 0..<height {
            for x in 0..<width { f.pointee.data.0![y * Int(f.pointee.linesize.0) + x] = luma(x, y) }
        }
        for y in 0..<(height + 1) / 2 {
            for x in 0..<(width + 1) / 2 {
                let (u, v) = uv(x * 2, y * 2)
                f.pointee.data.1![y * Int(f.pointee.linesize.1) + x] = u
                f.pointee.data.2![y * Int(f.pointee.linesize.2) + x] = v
            }
        }
        return VideoFrame(frame: frame, pts: 0, duration: 0, serial: 0, rotation: 0)
    }

    /// Renders `frame` into a `width` x `height` picture and returns its pixels as RGB.
    func render(_ frame: VideoFrame, width: Int, height: Int, quality: Scaler.Quality) -> [[(r: Double, g: Double, b: Double)]] {
        var px = [UInt32](repeating: 0, count: width * height)
        px.withUnsafeMutableBytes { raw in
            let t = ImageTarget(base: raw.baseAddress!, width: width, height: height, stride: width * 4)
            Scaler().render(frame, into: t, rect: PixelRect(x: 0, y: 0, width: width, height: height),
                            quality: quality, rotation: 0)
        }
        return (0..<height).map { y in
            (0..<width).map { x in
                let p = px[y * width + x]
                return (r: Double((p >> 16) & 0xFF), g: Double((p >> 8) & 0xFF), b: Double(p & 0xFF))
            }
        }
    }

    @Test("Fine detail shrunk to a half, a quarter or an eighth turns grey, neither black nor white",
          arguments: [2, 4, 8])
    func shrunkDetailIsAveraged(factor: Int) throws {
        // A checkerboard of video black and white whose squares are half the shrink factor:
        // each shown pixel covers as much black as white, and no pixel of the source is grey.
        // Halving that read the wrong rows, columns or planes would show bands or colour.
        let square = factor / 2
        let board = try yuvFrame(width: 128, height: 64, y: { x, y in (x / square + y / square) % 2 == 0 ? 16 : 235 },
                                 uv: { _, _ in (128, 128) })
        let out = render(board, width: 128 / factor, height: 64 / factor, quality: .fast)
        for (y, row) in out.enumerated() {
            for (x, p) in row.enumerated() {
                #expect(Colour.near(p, (128, 128, 128), tolerance: 12), "(\(x), \(y)) is \(Colour.text(p))")
            }
        }
    }

    @Test("Colour survives shrinking: red on the left and blue on the right stay where they were")
    func shrunkColourStaysInPlace() throws {
        // BT.601 limited-range red and blue.
        let halves = try yuvFrame(width: 256, height: 128, y: { x, _ in x < 128 ? 81 : 41 },
                                  uv: { x, _ in x < 128 ? (90, 240) : (240, 110) })
        let out = render(halves, width: 64, height: 32, quality: .fast)
        for y in [0, 16, 31] {
            #expect(Colour.near(out[y][2], Colour.red, tolerance: 25), "left at row \(y): \(Colour.text(out[y][2]))")
            #expect(Colour.near(out[y][61], Colour.blue, tolerance: 25), "right at row \(y): \(Colour.text(out[y][61]))")
        }
    }

    @Test("A tiny picture blown up shows each of its pixels as a solid block with sharp edges")
    func tinyPictureShowsBlocks() throws {
        // 12x12 columns, red and green in turn: blown up ten times, each column a 10 px band.
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = AV_PIX_FMT_RGB24.rawValue
        f.pointee.width = 12
        f.pointee.height = 12
        try #require(av_frame_get_buffer(f, 0) >= 0)
        for y in 0..<12 {
            for x in 0..<12 {
                let p = f.pointee.data.0! + y * Int(f.pointee.linesize.0) + x * 3
                (p[0], p[1], p[2]) = x % 2 == 0 ? (255, 0, 0) : (0, 255, 0)
            }
        }
        let picture = VideoFrame(frame: frame, pts: 0, duration: 0, serial: 0, rotation: 0)
        let out = render(picture, width: 120, height: 120, quality: .blocks)
        for y in [0, 55, 119] {
            for x in 0..<120 {
                // Every pixel is one of the two colours, right up to the edge of its band.
                let c = (x / 10) % 2 == 0 ? Colour.red : Colour.green
                #expect(Colour.near(out[y][x], c, tolerance: 3), "(\(x), \(y)) is \(Colour.text(out[y][x]))")
            }
        }
    }
}
