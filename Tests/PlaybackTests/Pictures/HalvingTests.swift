import CScale
import Testing
@testable import Playback

/// Video shown at half its size or less is halved first; every processor must show the
/// same thumbnail, and no form may write past the row it was given.
@Suite("Halving video planes")
struct HalvingTests {
    /// The 2x2 mean as the thumbnail promises it, an odd edge averaged with itself.
    static func expected(_ src: [UInt8], width: Int, height: Int, x: Int, y: Int) -> UInt8 {
        let x0 = min(2 * x, width - 1), x1 = min(2 * x + 1, width - 1)
        let y0 = min(2 * y, height - 1), y1 = min(2 * y + 1, height - 1)
        if 2 * x + 1 >= width {
            return UInt8((Int(src[y0 * width + x0]) + Int(src[y1 * width + x0]) + 1) >> 1)
        }
        let sum = Int(src[y0 * width + x0]) + Int(src[y0 * width + x1]) + Int(src[y1 * width + x0]) + Int(src[y1 * width + x1])
        return UInt8((sum + 2) >> 2)
    }

    @Test("Every form halves a plane into the rounded mean of each 2x2 block, at odd sizes too",
          arguments: [(1, 1), (2, 2), (3, 5), (63, 17), (64, 2), (130, 9), (1281, 721)])
    func formsAgreeWithTheMean(size: (Int, Int)) {
        let (w, h) = size
        var seed: UInt32 = 2463534242
        let src: [UInt8] = (0..<(w * h)).map { _ in
            seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5
            return UInt8(truncatingIfNeeded: seed)
        }
        let dw = (w + 1) / 2, dh = (h + 1) / 2
        let guardBytes = 40
        let forms = [CSCALE_PLAIN, CSCALE_SHUFFLE, CSCALE_WIDE].filter { $0.rawValue <= BilinearYUV.Taps.best.rawValue }
        for form in forms {
            let stride = dw + guardBytes
            var out = [UInt8](repeating: 7, count: stride * dh)
            src.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    Scaler.halve(s.baseAddress!, stride: w, width: w, height: h,
                                 into: o.baseAddress!, stride: stride, width: dw, height: dh, form: form)
                }
            }
            var wrong = 0, past = 0
            for y in 0..<dh {
                for x in 0..<dw where out[y * stride + x] != Self.expected(src, width: w, height: h, x: x, y: y) { wrong += 1 }
                for x in dw..<stride where out[y * stride + x] != 7 { past += 1 }
            }
            #expect(wrong == 0, "form \(form.rawValue), \(w)x\(h): \(wrong) samples are not the mean")
            #expect(past == 0, "form \(form.rawValue), \(w)x\(h): \(past) bytes written past the row")
        }
    }
}
