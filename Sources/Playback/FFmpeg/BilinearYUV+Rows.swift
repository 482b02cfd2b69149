import CScale

/// The row kernels of `BilinearYUV`: one resample of each plane and one colour conversion,
/// each a loop over one row so the whole frame passes through the caches once.
///
/// The chroma terms use Swift's SIMD types, which the compiler lowers to SSE2 (x86-64's
/// baseline, so no CPU check) or NEON; every lane is 16 bits wide, where both have
/// multiplies. The resampling and the conversion are in C (`CScale`). Each resampled output
/// reads its own pairs of inputs, a shuffle SSE2 lacks: written with scalar loads in Swift
/// it took 17 instructions a sample, which made the whole scaler cost more than swscale.
/// The conversion in Swift SIMD took 5.5 instructions a pixel; SSE2's saturating packs and
/// byte unpacks, which the compiler did not find, take it lower. Where the processor has
/// AVX2 both run 16 samples at a time (`Taps.form`): for a 1080p frame into 1280x720 that
/// is 5.4 M instructions against 9.6 M, with the same pixels.
extension BilinearYUV {
    /// Resamples output row between source rows `top` and `bottom` (weighing `below` in
    /// 1/256) through `taps`: the pass in `CScale`.
    static func resample(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, below: Int, taps: Taps,
                         into out: UnsafeMutablePointer<UInt8>) {
        taps.index.withUnsafeBufferPointer { index in
            taps.weight.withUnsafeBufferPointer { weight in
                taps.groups.withUnsafeBufferPointer { groups in
                    cscale_resample(top, bottom, Int32(below), index.baseAddress, weight.baseAddress,
                                    groups.isEmpty ? nil : groups.baseAddress, taps.form, out, index.count)
                }
            }
        }
    }

    /// The chroma's part of red, green and blue for one row of output pixels, in 1/32 of a
    /// level, from `count` chroma samples each covering two pixels across: computed once and
    /// used by both output rows that share the chroma row.
    static func chromaTerms(u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, matrix m: Coefficients,
                            red: UnsafeMutablePointer<Int16>, green: UnsafeMutablePointer<Int16>,
                            blue: UnsafeMutablePointer<Int16>, count: Int) {
        let centre = SIMD8<Int16>(repeating: 128)
        var i = 0
        while i < count {
            // The rows are padded by 16, so the last group reads and writes inside them.
            let du = SIMD8<Int16>(truncatingIfNeeded: UnsafeRawPointer(u + i).loadUnaligned(as: SIMD8<UInt8>.self)) &- centre
            let dv = SIMD8<Int16>(truncatingIfNeeded: UnsafeRawPointer(v + i).loadUnaligned(as: SIMD8<UInt8>.self)) &- centre
            store(m.vToRed.times(dv), twiceInto: red + 2 * i)
            store(0 &- m.uToGreen.times(du) &- m.vToGreen.times(dv), twiceInto: green + 2 * i)
            store(m.uToBlue.times(du), twiceInto: blue + 2 * i)
            i += 8
        }
    }

    /// Each lane of `t` twice, for the two pixels a chroma sample covers (one unpack each half).
    @inline(__always) private static func store(_ t: SIMD8<Int16>, twiceInto out: UnsafeMutablePointer<Int16>) {
        let low = SIMD8<Int16>(t[0], t[0], t[1], t[1], t[2], t[2], t[3], t[3])
        let high = SIMD8<Int16>(t[4], t[4], t[5], t[5], t[6], t[6], t[7], t[7])
        UnsafeMutableRawPointer(out).storeBytes(of: low, as: SIMD8<Int16>.self)
        UnsafeMutableRawPointer(out + 8).storeBytes(of: high, as: SIMD8<Int16>.self)
    }

    /// One output row: luma plus the chroma terms, clamped and packed as BGRX (`CScale`).
    static func convertRow(luma: UnsafePointer<UInt8>, red: UnsafePointer<Int16>, green: UnsafePointer<Int16>,
                           blue: UnsafePointer<Int16>, matrix m: Coefficients, form: cscale_form = Taps.best,
                           into out: UnsafeMutablePointer<UInt32>, count: Int) {
        cscale_convert(luma, red, green, blue, m.black, m.luma.whole, m.luma.fraction, form, out, count)
    }
}

/// A multiplier in 1/32 of a level with 1/256 of that to spare, applied with 16-bit
/// multiplies only: `x * whole + (x * fraction) >> 8`. Each product stays in 16 bits for
/// what it is used on: chroma differences of -128...127 with any multiplier below 64, and
/// luma above black (0...255) whose multiplier's fraction is below 128 (it is 67 for
/// limited range and 0 for full).
struct Multiplier: Equatable {
    var whole: Int16
    var fraction: Int16

    /// `value` (a plain factor such as 1.164) times 32.
    init(_ value: Double) {
        let scaled = value * 32
        let w = scaled.rounded(.down)
        whole = Int16(w)
        fraction = Int16(((scaled - w) * 256).rounded())
        if fraction == 256 { whole += 1; fraction = 0 }
    }

    @inline(__always) func times(_ x: SIMD8<Int16>) -> SIMD8<Int16> {
        x &* SIMD8(repeating: whole) &+ ((x &* SIMD8(repeating: fraction)) &>> 8)
    }
}
