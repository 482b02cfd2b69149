import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// Animated WebP is decoded by libwebp, which sets aside the whole canvas its header
/// declares: the pixel budget is checked on the header before that, and a canvas over it
/// is refused in words a user can act on.
@Suite struct WebPAnimationTests {
    /// A five-frame animated WebP made with ffmpeg, as its bytes.
    static func animation() throws -> Data {
        let path = try Fixtures.make("pt-anim-32x24-1s.webp", ["-f", "lavfi", "-i", "testsrc2=s=32x24:r=5", "-t", "1",
                                                            "-c:v", "libwebp_anim", "-loop", "0"])
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The same file with its VP8X canvas claiming `width`x`height` (24-bit fields, minus one).
    static func lying(_ data: Data, width: Int, height: Int) -> Data {
        var d = data
        for (offset, value) in [(24, width - 1), (27, height - 1)] {
            for i in 0..<3 { d[offset + i] = UInt8((value >> (8 * i)) & 0xFF) }
        }
        return d
    }

    @Test func aSmallAnimationDecodesItsFrames() throws {
        let anim = try WebPAnimation(bytes: try Self.animation(), name: "small.webp", maxPixels: 10_000)
        #expect(anim.width == 32 && anim.height == 24)
        var frames = 0
        while anim.next() != nil { frames += 1 }
        #expect(frames >= 2)
    }

    /// Found by make fuzz-media: libwebp asked for 11 GB before the budget was looked at.
    @Test(arguments: [(12_300_474, 237), (16_384, 16_384), (101, 100)])
    func aCanvasOverTheBudgetIsRefusedNamingTheLimit(width: Int, height: Int) throws {
        let bytes = Self.lying(try Self.animation(), width: width, height: height)
        #expect {
            _ = try WebPAnimation(bytes: bytes, name: "huge.webp", maxPixels: 10_000)
        } throws: { error in
            let m = (error as? AVError)?.message ?? ""
            return m.contains("huge.webp") && m.contains("\(width)x\(height)") && m.contains("over the limit")
        }
    }
}
