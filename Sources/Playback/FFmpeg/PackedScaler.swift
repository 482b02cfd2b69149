import CFFmpeg
import CScale
import Dispatch

/// Still pictures of four bytes a pixel (what the decode workers send: BGR0 from JPEG, RGBA
/// otherwise) scaled into the window's BGRX without swscale.
///
/// A viewer that only shows pictures its workers decoded then never loads libswscale. The
/// filter is swscale's own choice for stills, bicubic with B = 0 and C = 0.6, widened when
/// the picture shrinks so that every source pixel counts and fine detail does not alias;
/// moving pictures get bilinear. Unlike swscale it filters the RGB channels directly,
/// without a round trip through YUV, so colours are kept exactly where nothing is resampled.
final class PackedScaler {
    /// What the filters were made for.
    struct Geometry: Equatable {
        var sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
        var kernel: Kernel
    }

    /// The filter's shape: bicubic for a still at rest, bilinear while it moves.
    enum Kernel: Equatable {
        case bicubic, bilinear

        /// How far the kernel reaches, in source pixels at 1:1.
        var radius: Double { self == .bicubic ? 2 : 1 }

        /// The weight at `x` source pixels (scaled to the output's when it shrinks).
        func weight(_ x: Double) -> Double {
            let d = abs(x)
            switch self {
            case .bilinear:
                return max(0, 1 - d)
            case .bicubic:
                // Mitchell and Netravali's family with B = 0, C = 0.6, as swscale's SWS_BICUBIC.
                let c = 0.6
                if d < 1 { return ((12 - 6 * c) * d * d * d + (-18 + 6 * c) * d * d + 6) / 6 }
                if d < 2 { return ((-6 * c) * d * d * d + (30 * c) * d * d + (-48 * c) * d + 24 * c) / 6 }
                return 0
            }
        }
    }

    let geometry: Geometry
    private let across: Filter
    private let down: Filter
    /// One set of working rows for each band of output rows drawn at once.
    private let scratch: [Scratch]

    /// Whether `format` is one this scaler draws: four bytes a pixel, blue or red first.
    static func handles(format: Int32) -> Bool {
        swapsRedAndBlue(format) != nil
    }

    /// Whether `format` has red first (true), blue first (false), or is not drawn here (nil).
    static func swapsRedAndBlue(_ format: Int32) -> Bool? {
        switch format {
        case AV_PIX_FMT_BGR0.rawValue, AV_PIX_FMT_BGRA.rawValue: return false
        case AV_PIX_FMT_RGB0.rawValue, AV_PIX_FMT_RGBA.rawValue: return true
        default: return nil
        }
    }

    init(_ g: Geometry, bands: Int) {
        geometry = g
        across = Filter(from: g.sourceWidth, to: g.width, kernel: g.kernel)
        let down = Filter(from: g.sourceHeight, to: g.height, kernel: g.kernel)
        self.down = down
        scratch = (0..<max(1, min(bands, g.height))).map { _ in Scratch(width: g.width, taps: down.taps) }
    }

    /// Draws `frame` into `dst`, `geometry.width` x `geometry.height` BGRX pixels `stride`
    /// bytes apart, in as many bands as there are scratch buffers.
    func render(_ frame: UnsafeMutablePointer<AVFrame>, into dst: UnsafeMutableRawPointer, stride: Int) {
        let f = frame.pointee
        guard let data = f.data.0, f.linesize.0 > 0, let swap = Self.swapsRedAndBlue(f.format) else { return }
        let source = Source(base: data, stride: Int(f.linesize.0), swap: swap)
        let out = Target(base: dst, stride: stride)
        let bands = scratch.count, height = geometry.height
        if bands == 1 {
            draw(rows: 0..<height, from: source, into: out, scratch: scratch[0])
            return
        }
        // Each band owns its scratch and its rows of `dst`, and only reads the frame.
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            self.draw(rows: height * band / bands..<height * (band + 1) / bands, from: source, into: out,
                      scratch: self.scratch[band])
        }
    }

    private func draw(rows: Range<Int>, from source: Source, into out: Target, scratch s: Scratch) {
        guard !rows.isEmpty else { return }
        across.withFilter { a in
            down.withFilter { d in
                var a = a, d = d
                cscale_packed(source.base, source.stride, source.swap ? 1 : 0, &a, &d,
                              out.base.assumingMemoryBound(to: UInt8.self), out.stride, Int32(geometry.width),
                              Int32(rows.lowerBound), Int32(rows.upperBound), s.rows, s.slots, s.rowStarts)
            }
        }
    }
}

/// The frame's pixels as the bands see them.
private struct Source: @unchecked Sendable {
    // @unchecked: the frame stays alive and unchanged for the whole render, which only reads it.
    var base: UnsafePointer<UInt8>
    var stride: Int
    var swap: Bool

    init(base: UnsafeMutablePointer<UInt8>, stride: Int, swap: Bool) {
        self.base = UnsafePointer(base)
        self.stride = stride
        self.swap = swap
    }
}

/// The destination as the bands see it.
private struct Target: @unchecked Sendable {
    // @unchecked: each band writes only its own rows.
    var base: UnsafeMutableRawPointer
    var stride: Int
}

extension PackedScaler: @unchecked Sendable {
    // @unchecked: its filters are fixed at init; each scratch buffer is used by one band
    // alone during a render, and renders of one scaler never overlap.
}
