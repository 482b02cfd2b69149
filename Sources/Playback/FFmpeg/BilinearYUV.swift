import CFFmpeg
import Dispatch

/// Moving video's common case, YUV 4:2:0 scaled into the window's BGRX with bilinear
/// filtering, without swscale.
///
/// swscale's fast bilinear spends 20 M instructions on each 1080p frame shown in a 1280x720
/// window, against 4 M to convert it at its own size; with both cores decoding, each of
/// them is taken from the decoder. This does the same work in one pass a row at a time:
/// each plane's output row is resampled from the four source samples around each pixel,
/// and converted with the chroma row's terms, which two output rows share.
/// Chroma is interpolated for every second output pixel across and every second row down,
/// as swscale's fast path does it.
final class BilinearYUV {
    /// What the taps and coefficients were made for.
    struct Geometry: Equatable {
        var sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
        var colour: SourceColour
    }

    let geometry: Geometry
    private let lumaTaps: Taps
    private let chromaTaps: Taps
    private let matrix: Coefficients
    /// One set of row buffers for each band of rows converted at once.
    private let scratch: [Scratch]

    /// Whether a frame of `format` and this size can be drawn here rather than by swscale:
    /// 8-bit 4:2:0 SDR, at least 3 pixels on a side so each plane has two samples to blend.
    static func handles(format: Int32, width: Int, height: Int, colour: SourceColour) -> Bool {
        (format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue)
            && colour.hdr == nil && colour.isYUV && width >= 3 && height >= 3
    }

    init(_ g: Geometry, bands: Int) {
        geometry = g
        let chromaWidth = (g.sourceWidth + 1) / 2
        lumaTaps = Taps(from: g.sourceWidth, to: g.width)
        chromaTaps = Taps(chromaFrom: chromaWidth, lumaWidth: g.sourceWidth, width: g.width)
        matrix = Coefficients(g.colour)
        scratch = (0..<max(1, bands)).map { _ in Scratch(width: g.width) }
    }

    /// Draws `frame` into `dst`, `geometry.width` x `geometry.height` BGRX pixels `stride`
    /// bytes apart, in as many bands as there are scratch buffers.
    func render(_ frame: UnsafeMutablePointer<AVFrame>, into dst: UnsafeMutableRawPointer, stride: Int) {
        let f = frame.pointee
        guard let y = f.data.0, let u = f.data.1, let v = f.data.2 else { return }
        let planes = Planes(y: y, u: u, v: v, yStride: Int(f.linesize.0), uStride: Int(f.linesize.1),
                            vStride: Int(f.linesize.2))
        let pairs = (geometry.height + 1) / 2
        let bands = min(scratch.count, pairs)
        if bands == 1 {
            renderPairs(0..<pairs, planes, into: dst, stride: stride, scratch: scratch[0])
            return
        }
        // Each band owns its scratch and its rows of `dst`; nothing else is written.
        let out = UncheckedTarget(base: dst)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let first = pairs * band / bands, end = pairs * (band + 1) / bands
            self.renderPairs(first..<end, planes, into: out.base, stride: stride, scratch: self.scratch[band])
        }
    }

    /// Output rows `2 * pair` and `2 * pair + 1` for each pair, which share one chroma row.
    private func renderPairs(_ pairs: Range<Int>, _ p: Planes, into dst: UnsafeMutableRawPointer, stride: Int,
                             scratch s: Scratch) {
        let g = geometry
        let chromaHeight = (g.sourceHeight + 1) / 2
        for pair in pairs {
            // The chroma row midway between the two output rows.
            let (c0, c1, cw) = Self.rows(2 * pair, of: g.height, samplingDown: g.sourceHeight, chromaRows: chromaHeight)
            Self.resample(p.u + c0 * p.uStride, p.u + c1 * p.uStride, below: cw, taps: chromaTaps, into: s.u)
            Self.resample(p.v + c0 * p.vStride, p.v + c1 * p.vStride, below: cw, taps: chromaTaps, into: s.v)
            Self.chromaTerms(u: s.u, v: s.v, matrix: matrix, red: s.red, green: s.green, blue: s.blue,
                             count: (g.width + 1) / 2)
            for y in (2 * pair)..<min(2 * pair + 2, g.height) {
                let (r0, r1, w) = Self.rows(y, of: g.height, samplingDown: g.sourceHeight)
                Self.resample(p.y + r0 * p.yStride, p.y + r1 * p.yStride, below: w, taps: lumaTaps, into: s.luma)
                Self.convertRow(luma: s.luma, red: s.red, green: s.green, blue: s.blue, matrix: matrix,
                                form: lumaTaps.form, into: (dst + y * stride).assumingMemoryBound(to: UInt32.self), count: g.width)
            }
        }
    }

    /// The two source rows around output row `y` of `height` and the second one's weight
    /// in 1/256, centres aligned. With `chromaRows`, the chroma row shared by output rows y
    /// and y + 1, centred on the boundary between them; chroma rows sit midway between
    /// their two luma rows, and an odd picture's last one covers one.
    static func rows(_ y: Int, of height: Int, samplingDown source: Int, chromaRows: Int? = nil) -> (Int, Int, Int) {
        // In 1/256 of a source row: (y + 0.5) * source / height - 0.5 for luma, and
        // ((y + 1) * source / height - 1) / 2 for chroma.
        let pos = chromaRows == nil ? (2 * y + 1) * source * 128 / height - 128 : (y + 1) * source * 128 / height - 128
        let last = (chromaRows ?? source) - 1
        let clamped = max(0, min(pos, last * 256))
        let first = clamped >> 8
        return (first, min(first + 1, last), clamped & 255)
    }
}

/// The three planes of one frame.
private struct Planes: @unchecked Sendable {
    // @unchecked: the frame stays alive and unchanged for the whole render, which only reads it.
    var y, u, v: UnsafeMutablePointer<UInt8>
    var yStride, uStride, vStride: Int
}

/// The destination as the bands see it.
private struct UncheckedTarget: @unchecked Sendable {
    // @unchecked: each band writes only its own rows.
    var base: UnsafeMutableRawPointer
}

extension BilinearYUV: @unchecked Sendable {
    // @unchecked: its state is fixed at init, except the scratch buffers, each of which one
    // band alone uses during a render, and renders of one scaler never overlap.
}
