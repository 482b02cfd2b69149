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

    /// 10-bit code to tone-mapped light in BT.2020 primaries, 0...1 of the SDR white.
    private let toLight: [Float]
    /// Light 0...1 in 4096 steps to an 8-bit sRGB code.
    private let toCode: [UInt8]

    static let pqMap = ToneMap(.pq)
    static let hlgMap = ToneMap(.hlg)

    /// The map for `transfer`.
    static func map(for transfer: Transfer) -> ToneMap { transfer == .pq ? pqMap : hlgMap }

    private init(_ transfer: Transfer) {
        let peakMapped = ToneMap.rollOff(ToneMap.peak / ToneMap.referenceWhite)
        toLight = (0..<1024).map { code in
            let e = Double(code) / 1023
            let nits = transfer == .pq ? ToneMap.pqLight(e) : ToneMap.hlgLight(e)
            return Float(ToneMap.rollOff(nits / ToneMap.referenceWhite) / peakMapped)
        }
        toCode = (0..<4096).map { i in
            let v = Double(i) / 4095
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

    /// Maps `width` x `height` pixels of X2RGB10 (little-endian, as swscale writes them)
    /// at `base` in place into BGRX with 8 bits a channel.
    func apply(_ base: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int) {
        toLight.withUnsafeBufferPointer { light in
            toCode.withUnsafeBufferPointer { code in
                for y in 0..<height {
                    let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width {
                        let p = row[x]
                        let r = light[Int((p >> 20) & 0x3FF)], g = light[Int((p >> 10) & 0x3FF)], b = light[Int(p & 0x3FF)]
                        // BT.2020 to BT.709 primaries (ITU-R BT.2087), in linear light.
                        let r7 = 1.6605 * r - 0.5876 * g - 0.0728 * b
                        let g7 = -0.1246 * r + 1.1329 * g - 0.0083 * b
                        let b7 = -0.0182 * r - 0.1006 * g + 1.1187 * b
                        let ri = Int(min(max(r7, 0), 1) * 4095), gi = Int(min(max(g7, 0), 1) * 4095)
                        let bi = Int(min(max(b7, 0), 1) * 4095)
                        row[x] = UInt32(code[bi]) | UInt32(code[gi]) << 8 | UInt32(code[ri]) << 16
                    }
                }
            }
        }
    }
}
