import Dispatch
import Glibc

/// Turns HDR video (HDR10's PQ, or HLG) into SDR for an ordinary screen, so it is not shown
/// washed out: each channel's code goes to light (the transfer's EOTF), highlights above
/// the SDR white are rolled off, BT.2020's primaries are mapped into BT.709's, and the
/// result is coded for the screen (sRGB).
///
/// It works on what swscale made of the frame at the window's size, in 10 bits per channel,
/// through two lookup tables and a 3x3 matrix a pixel: the cost follows the window, not
/// the video, and stays within a few milliseconds for a 1080p window.
struct ToneMap: Sendable {
    /// How the frame's numbers code light.
    enum Transfer: Sendable, Equatable {
        /// SMPTE ST 2084 (HDR10): absolute light, up to 10,000 cd/m².
        case pq
        /// ARIB STD-B67 (broadcast HDR): scene light, shown here on a 1000 cd/m² screen.
        case hlg
    }

    /// Light of the SDR white: HDR's reference white (ITU-R BT.2408), 203 cd/m².
    static let referenceWhite = 203.0
    /// The brightest light assumed in the video when mapping highlights: 1000 cd/m², what
    /// most HDR10 video is mastered for and what HLG is shown at.
    static let peak = 1000.0
    /// Below this share of the SDR white light is kept as it is; above it highlights are
    /// rolled off towards the peak.
    static let knee = 0.75

    /// 10-bit code to tone-mapped light in BT.2020 primaries, 0...4096 for 0...1 of the SDR
    /// white. Whole numbers throughout: this runs for every pixel of every frame, and
    /// integer lookups and a fixed-point matrix take a third of the time floats took.
    private let toLight: [Int32]
    /// Light -4096...8191 (index + 4096) to an 8-bit sRGB code: the matrix can leave the
    /// 0...4095 range by this much either way, and a table wide enough to hold it needs no
    /// clamping, whose branches mispredicted on every other pixel.
    private let toCode: [UInt8]
    /// The largest light `toLight` holds, which keeps the matrix's results inside `toCode`.
    private static let lightLimit: Int32 = 4160

    static let pqMap = ToneMap(.pq)
    static let hlgMap = ToneMap(.hlg)

    /// The map for `transfer`.
    static func map(for transfer: Transfer) -> ToneMap { transfer == .pq ? pqMap : hlgMap }

    private init(_ transfer: Transfer) {
        let peakMapped = ToneMap.rollOff(ToneMap.peak / ToneMap.referenceWhite)
        toLight = (0..<1024).map { code in
            let e = Double(code) / 1023
            let nits = transfer == .pq ? ToneMap.pqLight(e) : ToneMap.hlgLight(e)
            return min(ToneMap.lightLimit, Int32((ToneMap.rollOff(nits / ToneMap.referenceWhite) / peakMapped * 4096).rounded()))
        }
        toCode = (-4096..<8192).map { i in
            let v = min(max(Double(i) / 4095, 0), 1)
            let s = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (s * 255).rounded())))
        }
    }

    /// SMPTE ST 2084's EOTF: a code 0...1 to cd/m².
    static func pqLight(_ e: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(max(e, 0), 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// HLG's inverse OETF and its OOTF for a 1000 cd/m² screen (system gamma 1.2), per channel.
    static func hlgLight(_ e: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        return 1000 * pow(scene, 1.2)
    }

    /// Light as a share of the SDR white, with highlights above the knee rolled off
    /// smoothly (same slope at the knee, approaching 1 far above it).
    static func rollOff(_ x: Double) -> Double {
        guard x > knee else { return x }
        let u = (x - knee) / (1 - knee)
        return knee + (1 - knee) * u / (1 + u)
    }

    /// BT.2020 to BT.709 primaries in linear light (ITU-R BT.2087), times 4096.
    private static let m: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) =
        (6801, -2407, -298, -510, 4640, -34, -75, -412, 4582)

    /// Maps `width` x `height` pixels of X2RGB10 (little-endian, as swscale writes them)
    /// at `base` in place into BGRX with 8 bits a channel, in `bands` bands of rows side by
    /// side on as many threads.
    func apply(_ base: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int, bands: Int = 1) {
        let n = max(1, min(bands, height))
        guard n > 1 else { return applyRows(base, stride: stride, width: width, rows: 0..<height) }
        // Each band is its own rows of the caller's memory, which outlives the call.
        let address = Int(bitPattern: base)
        DispatchQueue.concurrentPerform(iterations: n) { i in
            guard let rows = UnsafeMutableRawPointer(bitPattern: address) else { return }
            applyRows(rows, stride: stride, width: width, rows: height * i / n..<height * (i + 1) / n)
        }
    }

    private func applyRows(_ base: UnsafeMutableRawPointer, stride: Int, width: Int, rows: Range<Int>) {
        let m = ToneMap.m
        toLight.withUnsafeBufferPointer { light in
            toCode.withUnsafeBufferPointer { code in
                for y in rows {
                    let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width {
                        let p = row[x]
                        let r = light[Int(p >> 20 & 0x3FF)], g = light[Int(p >> 10 & 0x3FF)], b = light[Int(p & 0x3FF)]
                        let r7 = (m.0 &* r &+ m.1 &* g &+ m.2 &* b) >> 12
                        let g7 = (m.3 &* r &+ m.4 &* g &+ m.5 &* b) >> 12
                        let b7 = (m.6 &* r &+ m.7 &* g &+ m.8 &* b) >> 12
                        // Within -2747...6907 (|m| sums times lightLimit / 4096), so inside the table.
                        row[x] = UInt32(code[Int(b7) &+ 4096]) | UInt32(code[Int(g7) &+ 4096]) << 8
                            | UInt32(code[Int(r7) &+ 4096]) << 16
                    }
                }
            }
        }
    }
}
