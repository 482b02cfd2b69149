import CFFmpeg
import Glibc
import MediaCore

/// The detail tiles of a zoomed JPEG asked of a decode worker, and the answers, as the
/// `WorkerMessage`s that carry them: one place says what each number means, for both sides.
///
/// `regionsOpen` hands over the file's descriptor and is answered with the stored size
/// (`regionsSize`); each `regionsBand` asks for one piece at a level, with the display's
/// ICC profile in a sealed memfd (or none), and is answered with the piece's pixels, 4
/// bytes each, rows packed, in a sealed memfd.
package enum RegionRequest {
    /// The formats a piece may come in: libjpeg's BGR0, or RGBA after colour management.
    static let formats: Set<Int32> = [AV_PIX_FMT_BGR0.rawValue, AV_PIX_FMT_RGBA.rawValue]
    /// JPEG's largest side.
    static let largestSide = 65_535

    /// The stored size in a `regionsSize` answer; nil when it is malformed.
    static func size(in m: WorkerMessage) -> (width: Int, height: Int)? {
        guard m.kind == .regionsSize, m.numbers.count >= 2, (1...Int64(largestSide)).contains(m.numbers[0]),
              (1...Int64(largestSide)).contains(m.numbers[1]) else { return nil }
        return (Int(m.numbers[0]), Int(m.numbers[1]))
    }

    /// The request for the piece of `area` at `level`, carrying `profile` (a sealed memfd,
    /// or -1 for sRGB), which stays the caller's.
    static func band(level: Int, area: TileGrid, profile: Int32) -> WorkerMessage {
        WorkerMessage(kind: .regionsBand, numbers: [Int64(level), Int64(area.x), Int64(area.y), Int64(area.width),
                                                    Int64(area.height)], fd: profile)
    }

    /// What a band request asks for: level, place and size (checked against the picture by
    /// the decoder); nil when it is malformed.
    static func asked(_ m: WorkerMessage) -> (level: Int, x: Int, y: Int, width: Int, height: Int)? {
        guard m.kind == .regionsBand, m.numbers.count >= 5,
              m.numbers.prefix(5).allSatisfy({ (0...Int64(largestSide)).contains($0) }) else { return nil }
        let n = m.numbers.map { Int($0) }
        return (n[0], n[1], n[2], n[3], n[4])
    }

    /// The answer to the band request `m`: the piece of `regions` it asks for, decoded and
    /// colour managed to the display's profile in its fd (none: sRGB), or why not in one line.
    package static func answer(_ m: WorkerMessage, from regions: JPEGRegions) -> WorkerMessage {
        answer(m, bands: regions)
    }

    /// The piece `m` asks for from a PNG's or TIFF's pyramid, as for a JPEG.
    package static func answer(_ m: WorkerMessage, from regions: PyramidRegions) -> WorkerMessage {
        answer(m, bands: regions)
    }

    private static func answer(_ m: WorkerMessage, bands regions: any BandSource) -> WorkerMessage {
        guard let asked = asked(m) else { return WorkerMessage(kind: .failure, text: "zoom detail: the request was malformed") }
        var profile: [UInt8]?
        if m.fd >= 0, let size = SealedBytes.size(m.fd), size > 0, size <= 4 << 20 { profile = WholeFile.read(m.fd, size: size) }
        do {
            let band = try regions.band(level: asked.level, x: asked.x, y: asked.y, width: asked.width, height: asked.height,
                                        displayProfile: profile)
            return answer(band) ?? WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)], text: "zoom detail: out of memory")
        } catch {
            return WorkerMessage(kind: .failure, text: error.message)
        }
    }

    /// The answer carrying the decoded `band`: width, height and pixel format, its rows
    /// packed in a sealed memfd; nil without memory.
    static func answer(_ band: Frame) -> WorkerMessage? {
        let f = band.raw
        let w = Int(f.pointee.width), h = Int(f.pointee.height), stride = Int(f.pointee.linesize.0)
        guard w > 0, h > 0, let base = f.pointee.data.0 else { return nil }
        let rows = (0..<h).map { UnsafeRawBufferPointer(start: base + $0 * stride, count: w * 4) }
        guard let fd = SealedBytes.make(rows, name: "mediaview-tiles") else { return nil }
        return WorkerMessage(kind: .picture, numbers: [Int64(w), Int64(h), Int64(f.pointee.format)], fd: fd)
    }

    /// The tiles of the piece in the answer `m` to a request for `area`, cut straight from
    /// the worker's memfd; nil when the answer is malformed (another size, another format,
    /// a short memfd). Leaves `m.fd` open.
    static func tiles(in m: WorkerMessage, area: TileGrid) -> [[VideoFrame]]? {
        guard m.kind == .picture, m.numbers.count >= 3, m.fd >= 0, m.numbers[0] == Int64(area.width),
              m.numbers[1] == Int64(area.height), formats.contains(Int32(truncatingIfNeeded: m.numbers[2])) else { return nil }
        let count = area.width * area.height * 4
        guard let p = SealedBytes.map(m.fd, count: count) else { return nil }
        defer { munmap(p, count) }
        return try? area.slice(UnsafeRawPointer(p), stride: area.width * 4, format: Int32(m.numbers[2]))
    }
}
