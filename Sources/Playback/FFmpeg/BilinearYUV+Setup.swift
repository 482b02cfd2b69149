import CFFmpeg
import CScale

extension BilinearYUV {
    /// For each output column, the source sample to its left and the weight of the one to
    /// its right, in 1/256; and the same in groups of 8 for `CScale`'s shuffled and wide forms.
    struct Taps {
        let index: [Int32]
        let weight: [Int16]
        /// Empty for the plain loop (a processor without SSSE3).
        let groups: [cscale_group]
        /// How `CScale` runs over these taps, and converts the rows they make.
        let form: cscale_form

        /// The widest form the processor runs; asked once.
        static let best = cscale_best_form()

        /// Luma's taps from a row of `source` samples to one of `count`, centres aligned,
        /// for `form` (the plain loop needs no groups).
        init(from source: Int, to count: Int, form: cscale_form = Taps.best) {
            // In 1/256 of a sample: (x + 0.5) * source / count - 0.5.
            self.init(source: source, count: count, form: form) { x in (2 * x + 1) * source * 128 / count - 128 }
        }

        /// Chroma's taps from a chroma row of `source` samples, of a picture `lumaWidth`
        /// wide, for an output `width` wide: one output sample for each two pixels across.
        /// Chroma samples sit on the left one of their two luma columns (MPEG-4 and H.264's
        /// default), and an odd picture's last one covers one column, not two.
        init(chromaFrom source: Int, lumaWidth: Int, width: Int, form: cscale_form = Taps.best) {
            // In 1/256 of a sample, for output pixels 2x and 2x + 1:
            // ((2x + 1) * lumaWidth / width - 0.5) / 2.
            self.init(source: source, count: (width + 1) / 2, form: form) { x in
                (2 * x + 1) * lumaWidth * 128 / width - 64
            }
        }

        private init(source: Int, count: Int, form: cscale_form, position: (Int) -> Int) {
            var index = [Int32](), weight = [Int16]()
            index.reserveCapacity(count)
            weight.reserveCapacity(count)
            for x in 0..<count {
                let clamped = max(0, min(position(x), (source - 1) * 256))
                var i = clamped >> 8, w = clamped & 255
                // The last sample is reached as the full weight of the pair before it, so
                // no tap reads past the row.
                if i >= source - 1 { i = source - 2; w = 256 }
                index.append(Int32(i))
                weight.append(Int16(w))
            }
            self.index = index
            self.weight = weight
            self.form = form
            groups = form == CSCALE_PLAIN ? [] : Taps.groups(index, weight, source: source)
        }

        /// The shuffle mask and weights of each whole group of 8 outputs. A group whose
        /// pairs span more than 16 bytes, or whose 16 bytes would pass the row's end, is
        /// marked for the plain loop.
        static func groups(_ index: [Int32], _ weight: [Int16], source: Int) -> [cscale_group] {
            stride(from: 0, to: index.count - 7, by: 8).map { x in
                var g = cscale_group()
                let base = Int(index[x])
                guard Int(index[x + 7]) + 1 - base <= 15, base + 16 <= source else {
                    g.base = -1
                    return g
                }
                g.base = Int32(base)
                withUnsafeMutableBytes(of: &g.shuffle) { mask in
                    for k in 0..<8 {
                        let offset = UInt8(Int(index[x + k]) - base)
                        (mask[2 * k], mask[2 * k + 1]) = (offset, offset + 1)
                    }
                }
                withUnsafeMutableBytes(of: &g.weights) { raw in
                    // To 1/64, rounded: pmaddubsw multiplies by signed bytes, so 256 won't do.
                    for k in 0..<8 {
                        let right = (Int(weight[x + k]) + 2) >> 2
                        (raw[2 * k], raw[2 * k + 1]) = (UInt8(64 - right), UInt8(right))
                    }
                }
                return g
            }
        }
    }

    /// The YUV to RGB matrix as 16-bit multipliers, in 1/32 of a level.
    struct Coefficients {
        /// Luma's zero: 16 for limited range, 0 for full.
        let black: Int16
        let luma: Multiplier
        let vToRed, uToGreen, vToGreen, uToBlue: Multiplier

        /// The same numbers swscale is given for `colour` (`SourceColour.apply`): its
        /// table for the matrix, stretched from 16-235 for limited range, and with the
        /// chroma narrowed by 224/255 for full range, where chroma spans 1-255 not 16-240.
        init(_ colour: SourceColour) {
            let table = sws_getCoefficients(colour.matrix)!
            let chroma = colour.fullRange ? 224.0 / 255.0 : 1
            func factor(_ i: Int) -> Multiplier { Multiplier(Double(table[i]) / 65536 * chroma) }
            black = colour.fullRange ? 0 : 16
            luma = Multiplier(colour.fullRange ? 1 : 255.0 / 219.0)
            vToRed = factor(0)
            uToBlue = factor(1)
            uToGreen = factor(2)
            vToGreen = factor(3)
        }
    }

    /// One band's row buffers, padded so the 8- and 16-lane loops may read and write a
    /// whole group past the row's end.
    final class Scratch {
        let u, v, luma: UnsafeMutablePointer<UInt8>
        let red, green, blue: UnsafeMutablePointer<Int16>

        init(width: Int) {
            let row = width + 16
            u = .allocate(capacity: row)
            v = .allocate(capacity: row)
            luma = .allocate(capacity: row)
            red = .allocate(capacity: row)
            green = .allocate(capacity: row)
            blue = .allocate(capacity: row)
            for p in [u, v, luma] { p.initialize(repeating: 128, count: row) }
            for p in [red, green, blue] { p.initialize(repeating: 0, count: row) }
        }

        deinit {
            for p in [u, v, luma] { p.deallocate() }
            for p in [red, green, blue] { p.deallocate() }
        }
    }
}
