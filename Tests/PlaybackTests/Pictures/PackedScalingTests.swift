import CFFmpeg
import Foundation
import Testing
@testable import Playback

/// Pictures of four bytes a pixel, as the decode workers send them, scaled by the viewer's
/// own still scaler: what the window shows, and that it matches swscale's bicubic.
@Suite struct PackedScalingTests {
    /// A `format` frame whose pixels come from `colour(x, y)` as (red, green, blue).
    func packedFrame(_ format: AVPixelFormat, width: Int, height: Int,
                     _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) throws -> VideoFrame {
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = format.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        try #require(av_frame_get_buffer(f, 0) >= 0)
        let redFirst = format == AV_PIX_FMT_RGBA || format == AV_PIX_FMT_RGB0
        for y in 0..<height {
            let row = f.pointee.data.0! + y * Int(f.pointee.linesize.0)
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                row[x * 4] = redFirst ? r : b
                row[x * 4 + 1] = g
                row[x * 4 + 2] = redFirst ? b : r
                // Alpha that varies: the window shows the colour whatever it says.
                row[x * 4 + 3] = UInt8(truncatingIfNeeded: x * 7)
            }
        }
        return VideoFrame(frame: frame, pts: 0, duration: 0, serial: 0, rotation: 0)
    }

    /// `frame` scaled by the viewer's scaler into `width` x `height` BGRX.
    func scaled(_ frame: VideoFrame, width: Int, height: Int, quality: Scaler.Quality = .best) -> [UInt32] {
        var px = [UInt32](repeating: 0, count: width * height)
        px.withUnsafeMutableBytes { raw in
            let t = ImageTarget(base: raw.baseAddress!, width: width, height: height, stride: width * 4)
            Scaler().render(frame, into: t, rect: PixelRect(x: 0, y: 0, width: width, height: height),
                            quality: quality, rotation: 0)
        }
        return px
    }

    /// `frame` scaled by swscale with the flags the viewer used for stills before it had its own.
    func swscaled(_ frame: VideoFrame, width: Int, height: Int) throws -> [UInt32] {
        let f = frame.frame.raw
        let sws = try #require(sws_getContext(f.pointee.width, f.pointee.height, AVPixelFormat(rawValue: f.pointee.format),
                                              Int32(width), Int32(height), AV_PIX_FMT_BGR0,
                                              SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil))
        defer { sws_freeContext(sws) }
        var px = [UInt32](repeating: 0, count: width * height)
        px.withUnsafeMutableBytes { raw in
            var dst: [UnsafeMutablePointer<UInt8>?] = [raw.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var dstStride: [Int32] = [Int32(width * 4), 0, 0, 0]
            let src: [UnsafePointer<UInt8>?] = [UnsafePointer(f.pointee.data.0), nil, nil, nil]
            let srcStride: [Int32] = [f.pointee.linesize.0, 0, 0, 0]
            _ = sws_scale(sws, src, srcStride, 0, f.pointee.height, &dst, &dstStride)
        }
        return px
    }

    static func channels(_ p: UInt32) -> (Int, Int, Int) {
        (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
    }

    /// Something like a photo: soft gradients, a sharp diagonal edge and fine stripes.
    static func scene(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let r = UInt8(truncatingIfNeeded: (x * 255) / 599)
        let g = UInt8(truncatingIfNeeded: 128 + Int(100 * sin(Double(y) / 23)))
        let b: UInt8 = x + 2 * y < 700 ? 40 : ((x / 3) % 2 == 0 ? 230 : 90)
        return (r, g, b)
    }

    @Test("A flat colour stays exactly that colour, red first or blue first, shrunk or blown up",
          arguments: [AV_PIX_FMT_RGBA, AV_PIX_FMT_BGR0, AV_PIX_FMT_BGRA, AV_PIX_FMT_RGB0])
    func flatColourIsKept(format: AVPixelFormat) throws {
        // Sources as small as one pixel: every tap then falls on the same few pixels.
        for (sw, sh) in [(97, 61), (1, 1), (2, 3)] {
            let orange = try packedFrame(format, width: sw, height: sh) { _, _ in (250, 130, 10) }
            for (w, h) in [(31, 17), (300, 200), (97, 61), (1, 1)] {
                let out = scaled(orange, width: w, height: h)
                let wrong = out.filter { $0 & 0xFFFFFF != 0xFA820A }
                #expect(wrong.isEmpty, "\(sw)x\(sh) to \(w)x\(h): \(wrong.count) pixels are not orange, such as \(String(wrong.first ?? 0, radix: 16))")
            }
        }
    }

    @Test("Fine stripes shrunk turn grey, shimmering no more than with swscale's bicubic",
          arguments: [Scaler.Quality.best, .fast])
    func shrunkStripesAreAveraged(quality: Scaler.Quality) throws {
        // Black and white columns one pixel wide: a filter that only looks at the nearest
        // two or four source pixels would show stripes of black and white again.
        let stripes = try packedFrame(AV_PIX_FMT_RGBA, width: 600, height: 90) { x, _ in
            x % 2 == 0 ? (0, 0, 0) : (255, 255, 255)
        }
        for width in [300, 240, 200, 171, 150] {
            let ours = scaled(stripes, width: width, height: 30, quality: quality).map { Self.channels($0).1 }
            let theirs = try swscaled(stripes, width: width, height: 30).map { Self.channels($0).1 }
            let mean = Double(ours.reduce(0, +)) / Double(ours.count)
            #expect(abs(mean - 127.5) < 4, "\(width) wide: the grey is \(mean) on average")
            #expect(ours.max()! - ours.min()! <= theirs.max()! - theirs.min()! + 10,
                    "\(width) wide: ours from \(ours.min()!) to \(ours.max()!), swscale's \(theirs.min()!) to \(theirs.max()!)")
        }
    }

    @Test("Red stays on the left and blue on the right, with the edge where it was")
    func colourStaysInPlace() throws {
        let halves = try packedFrame(AV_PIX_FMT_RGBA, width: 400, height: 100) { x, _ in x < 200 ? (255, 0, 0) : (0, 0, 255) }
        let out = scaled(halves, width: 160, height: 40)
        for y in [0, 20, 39] {
            #expect(out[y * 160 + 5] & 0xFFFFFF == 0xFF0000, "left at row \(y)")
            #expect(out[y * 160 + 154] & 0xFFFFFF == 0x0000FF, "right at row \(y)")
            // The edge falls between columns 79 and 80, each side mostly its own colour.
            #expect(Self.channels(out[y * 160 + 79]).0 > 200 && Self.channels(out[y * 160 + 80]).2 > 200)
        }
    }

    @Test("Turned a quarter clockwise, the picture's left half lands on top")
    func turnedPictureKeepsItsHalves() throws {
        let halves = try packedFrame(AV_PIX_FMT_RGBA, width: 400, height: 100) { x, _ in x < 200 ? (255, 0, 0) : (0, 0, 255) }
        var px = [UInt32](repeating: 0, count: 40 * 160)
        px.withUnsafeMutableBytes { raw in
            let t = ImageTarget(base: raw.baseAddress!, width: 40, height: 160, stride: 160)
            Scaler().render(halves, into: t, rect: PixelRect(x: 0, y: 0, width: 40, height: 160), quality: .best, rotation: 90)
        }
        #expect(px[10 * 40 + 20] & 0xFFFFFF == 0xFF0000, "the top is \(String(px[10 * 40 + 20], radix: 16))")
        #expect(px[150 * 40 + 20] & 0xFFFFFF == 0x0000FF, "the bottom is \(String(px[150 * 40 + 20], radix: 16))")
    }

    @Test("A photo-like picture looks as swscale's bicubic made it: on average within a level",
          arguments: [(400, 250), (173, 111), (1500, 1000), (600, 400)])
    func matchesSwscale(size: (Int, Int)) throws {
        let picture = try packedFrame(AV_PIX_FMT_RGBA, width: 600, height: 400, Self.scene)
        let ours = scaled(picture, width: size.0, height: size.1)
        let theirs = try swscaled(picture, width: size.0, height: size.1)
        var total = 0, worst = 0
        for (a, b) in zip(ours, theirs) {
            let (r1, g1, b1) = Self.channels(a), (r2, g2, b2) = Self.channels(b)
            let d = [abs(r1 - r2), abs(g1 - g2), abs(b1 - b2)]
            total += d.reduce(0, +)
            worst = max(worst, d.max()!)
        }
        let mean = Double(total) / Double(ours.count * 3)
        #expect(mean < 1.0, "\(size): mean difference \(mean) levels, the worst \(worst)")
    }
}
