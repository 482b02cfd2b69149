import CScale

extension PackedScaler {
    /// One axis's filter: for each output sample, where its taps start in the source and
    /// their weights in 1/16384, every tap inside the source.
    struct Filter {
        let first: [Int32]
        let weights: [Int16]
        let taps: Int

        /// From `source` samples to `count`, centres aligned.
        init(from source: Int, to count: Int, kernel: Kernel) {
            let scale = Double(source) / Double(count)
            // Shrinking, the kernel stretches over `scale` source pixels per output pixel.
            let stretch = max(1, scale)
            let radius = kernel.radius * stretch
            let taps = max(1, min(source, Int((2 * radius).rounded(.up))))
            var first = [Int32](), weights = [Int16]()
            first.reserveCapacity(count)
            weights.reserveCapacity(count * taps)
            var row = [Double](repeating: 0, count: taps)
            for i in 0..<count {
                let centre = (Double(i) + 0.5) * scale - 0.5
                let left = Int((centre - radius).rounded(.down)) + 1
                let start = max(0, min(left, source - taps))
                for k in 0..<taps { row[k] = 0 }
                // Taps past an edge count as the edge's pixel, as swscale's do.
                for j in left..<(left + taps) {
                    let at = max(0, min(j, source - 1)) - start
                    if at >= 0 && at < taps { row[at] += kernel.weight((Double(j) - centre) / stretch) }
                }
                first.append(Int32(start))
                weights.append(contentsOf: Self.whole(row))
            }
            self.first = first
            self.weights = weights
            self.taps = taps
        }

        /// `row` in 1/16384 of its sum, rounded so the sum is exactly 16384 (a flat area stays
        /// its own colour); the largest weight takes the rounding's difference.
        static func whole(_ row: [Double]) -> [Int16] {
            let sum = row.reduce(0, +)
            guard sum != 0 else {
                var flat = [Int16](repeating: 0, count: row.count)
                flat[row.count / 2] = 16384
                return flat
            }
            var out = row.map { Int16(($0 / sum * 16384).rounded()) }
            let difference = 16384 - out.reduce(0) { $0 + Int($1) }
            if let most = row.indices.max(by: { row[$0] < row[$1] }) { out[most] += Int16(difference) }
            return out
        }

        /// The filter as CScale reads it, valid inside `body`.
        func withFilter<R>(_ body: (cscale_filter) -> R) -> R {
            first.withUnsafeBufferPointer { f in
                weights.withUnsafeBufferPointer { w in
                    body(cscale_filter(first: f.baseAddress, weights: w.baseAddress, taps: Int32(taps)))
                }
            }
        }
    }

    /// One band's working memory: the rows filtered across that its outputs need, which
    /// source row each slot holds, and where one output row's rows are.
    final class Scratch {
        let rows: UnsafeMutablePointer<Int16>
        let slots: UnsafeMutablePointer<Int32>
        let rowStarts: UnsafeMutablePointer<UnsafePointer<Int16>?>

        init(width: Int, taps: Int) {
            rows = .allocate(capacity: max(1, width * 4 * taps))
            slots = .allocate(capacity: max(1, taps))
            rowStarts = .allocate(capacity: max(1, taps))
        }

        deinit {
            rows.deallocate()
            slots.deallocate()
            rowStarts.deallocate()
        }
    }
}
