import CFFmpeg
import Foundation
import Testing
import MediaCore
import TestSupport
@testable import Playback

/// PNGs and TIFFs over the pixel budget are read a few rows at a time and halved as they
/// come: every layout comes out as FFmpeg decodes it, each halving is the mean of its 2x2
/// squares, and the zoom's tiles are the picture's own pixels, from a worker as from here.
@Suite(.serialized) struct LargeStillTests {
    init() { FFmpegLog.quiet }

    static let (width, height) = (2001, 1001)

    /// The RGBA rows of a frame, packed.
    static func rgba(_ frame: Frame) -> [UInt8] {
        let f = frame.raw.pointee
        let w = Int(f.width), h = Int(f.height), stride = Int(f.linesize.0)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        out.withUnsafeMutableBytes { o in
            for y in 0..<h { (o.baseAddress! + y * w * 4).copyMemory(from: f.data.0! + y * stride, byteCount: w * 4) }
        }
        return out
    }

    /// `pixels` (`width` wide, RGBA) halved: each pixel the rounded mean of its 2x2 square,
    /// an odd last column or row paired with itself.
    static func halved(_ pixels: [UInt8], width: Int) -> (pixels: [UInt8], width: Int) {
        let height = pixels.count / 4 / width
        let w = (width + 1) / 2, h = (height + 1) / 2
        var out = [UInt8](repeating: 0, count: w * h * 4)
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    let a = 2 * y * width * 4, b = min(2 * y + 1, height - 1) * width * 4
                    for x in 0..<w {
                        let x0 = 2 * x * 4, x1 = min(2 * x + 1, width - 1) * 4
                        for c in 0..<4 {
                            let v = x1 == x0 ? (Int(p[a + x0 + c]) + Int(p[b + x0 + c]) + 1) / 2
                                : (Int(p[a + x0 + c]) + Int(p[a + x1 + c]) + Int(p[b + x0 + c]) + Int(p[b + x1 + c]) + 2) / 4
                            o[(y * w + x) * 4 + c] = UInt8(v)
                        }
                    }
                }
            }
        }
        return (out, w)
    }

    static func largest(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return 256 }
        return a.withUnsafeBufferPointer { p in
            b.withUnsafeBufferPointer { q in
                var worst = 0
                for i in 0..<p.count { worst = max(worst, abs(Int(p[i]) - Int(q[i]))) }
                return worst
            }
        }
    }

    static func decode(_ path: String, target: (width: Int, height: Int)?, maxPixels: Int) throws -> StillWork.Result {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        return try LargeStill.decode(fd: fd, name: URL(fileURLWithPath: path).lastPathComponent, target: target, maxPixels: maxPixels)
    }

    @Test("Every layout reads whole as FFmpeg decodes it", arguments: Fixtures.largePNGs + Fixtures.largeTIFFs)
    func everyLayoutAsFFmpegDecodesIt(layout: Fixtures.LargeLayout) throws {
        let path = try layout.path()
        let result = try Self.decode(path, target: nil, maxPixels: 1 << 40)
        #expect(result.stored == (Self.width, Self.height) && result.codec == (path.hasSuffix(".png") ? "png" : "tiff"))
        let f = result.frame.raw.pointee
        #expect(Int(f.width) == Self.width && Int(f.height) == Self.height && f.format == AV_PIX_FMT_RGBA.rawValue)
        let reference = try Fixtures.ffmpegRGBA(try layout.reference(), width: Self.width, height: Self.height)
        let off = Self.largest(Self.rgba(result.frame), reference)
        #expect(off <= layout.tolerance, "\(layout): a channel differs from FFmpeg's by \(off)")
    }

    @Test("Reduced to fit the budget and the window: each level the mean of the 2x2 squares of the one before")
    func halvingsAreMeans() throws {
        let path = try Fixtures.largePNGs[1].path()  // RGBA, so alpha is averaged too
        var level = (pixels: try Fixtures.ffmpegRGBA(path, width: Self.width, height: Self.height), width: Self.width)
        // Within a budget of a third of the pixels: one halving (1001 x 501).
        level = Self.halved(level.pixels, width: level.width)
        let one = try Self.decode(path, target: nil, maxPixels: Self.width * Self.height / 3)
        #expect(Int(one.frame.raw.pointee.width) == 1001 && Int(one.frame.raw.pointee.height) == 501)
        let once = Self.largest(Self.rgba(one.frame), level.pixels)
        #expect(once == 0, "one halving is not the mean of its squares: a channel off by \(once)")
        // For a 300 x 200 window: halvings while the picture still covers it (251 x 126 would not).
        level = Self.halved(level.pixels, width: level.width)
        let fitted = try Self.decode(path, target: (300, 200), maxPixels: Self.width * Self.height)
        #expect(Int(fitted.frame.raw.pointee.width) == 501 && Int(fitted.frame.raw.pointee.height) == 251)
        let twice = Self.largest(Self.rgba(fitted.frame), level.pixels)
        #expect(twice == 0, "two halvings are not the means of their squares: a channel off by \(twice)")
        #expect(fitted.stored == (Self.width, Self.height))
    }

    /// Every tile of every level of `sources` is `layout`'s picture halved that many times.
    static func expectTilesAreTheFile(_ sources: [any RegionSource], layout: Fixtures.LargeLayout) throws {
        let full = try Fixtures.ffmpegRGBA(try layout.reference(), width: Self.width, height: Self.height)
        var level = (pixels: full, width: Self.width)
        for l in 0...3 {
            for source in sources {
                let (lw, lh) = source.size(level: l)
                #expect(lw == level.width && lh == level.pixels.count / 4 / level.width)
                let columns = 0...((lw - 1) / 512), rows = 0...((lh - 1) / 512)
                let grid = try source.tiles(level: l, rows: rows, columns: columns, side: 512, displayProfile: nil)
                for (r, row) in grid.enumerated() {
                    for (c, tile) in row.enumerated() {
                        let w = min(512, lw - c * 512), h = min(512, lh - r * 512)
                        #expect(tile.width == w && tile.height == h)
                        let want = Fixtures.crop(level.pixels, width: lw, x: c * 512, y: r * 512, w: w, h: h)
                        let off = Self.largest(Self.rgba(tile.frame), want)
                        #expect(off == 0, "\(layout) level \(l) tile \(c),\(r) is not the file's: a channel off by \(off)")
                    }
                }
            }
            level = Self.halved(level.pixels, width: level.width)
        }
    }

    @Test("The zoom's tiles are the file's pixels, level by level, from a worker and from here",
          arguments: [Fixtures.largePNGs[0], Fixtures.largeTIFFs[0], Fixtures.largeTIFFs[4]])
    func tilesAreThePicturesOwn(layout: Fixtures.LargeLayout) throws {
        let path = try layout.path()
        // A pyramid a fitted decode left for this file would be taken instead of a worker's.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if let left = PyramidShelf.shared.take(file: fd) { close(left.store) }
        close(fd)
        let boxed = try SandboxedRegions.open(path: path, mode: .automatic)
        let here = try SandboxedRegions.open(path: path, mode: .off)
        let pid = try #require((boxed as? SandboxedRegions)?.pid, "the pyramid was not built in a worker")
        #expect(here is PyramidRegions)
        #expect(boxed.width == Self.width && boxed.height == Self.height && here.width == Self.width)
        try Self.expectTilesAreTheFile([boxed, here], layout: layout)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        #expect(status.contains("Seccomp:\t2\n") && status.contains("NoNewPrivs:\t1\n"), "the pyramid's worker is not confined")
    }

    @Test("The pass that shows the picture fitted leaves the zoom its tiles, from a worker and from here, and a store that cannot be written costs only the tiles",
          arguments: [Fixtures.largePNGs[0], Fixtures.largeTIFFs[4]])
    func theFittedPassLeavesTheTiles(layout: Fixtures.LargeLayout) throws {
        let path = try layout.path()
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        _ = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, 0) }
        var options = PlayerOptions()
        options.source.maxPixels = 600_000
        options.targetSize = (640, 360)
        let pool = DecodeWorkers(timeout: 10, testing: true)
        guard case .picture = try pool.large(fd: fd, head: head, name: "large", options: options) else {
            Issue.record("no picture from the worker")
            return
        }
        // No second pass and no worker: the zoom reads what the worker's pass wrote.
        let shelved = try SandboxedRegions.open(path: path, mode: .automatic)
        #expect(shelved is PyramidRegions, "the zoom did not take the fitted pass's tiles")

        let store = try PyramidStore.create(in: nil)
        let here = try LargeStill.decode(fd: fd, name: "large", target: (640, 360), maxPixels: 600_000, store: store)
        #expect(here.tilesStored)
        let read = PyramidRegions(reading: store, layout: LargeStill.layout(width: Self.width, height: Self.height), name: "large")
        try Self.expectTilesAreTheFile([shelved, read], layout: layout)

        // A store the pass cannot write to (as on a full disk): the picture comes all the same.
        let readOnly = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(readOnly) }
        let without = try LargeStill.decode(fd: fd, name: "large", target: (640, 360), maxPixels: 600_000, store: readOnly)
        #expect(!without.tilesStored)
        #expect(without.pixels == here.pixels, "the picture differs when its tiles could not be stored")
    }

    @Test("The worker's fitted picture is the viewer's own, byte for byte, and comes from a confined worker")
    func workerMatchesInProcess() throws {
        let path = try Fixtures.largeTIFFs[3].path()
        var options = PlayerOptions()
        options.source.maxPixels = 600_000
        options.targetSize = (640, 360)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        _ = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, 0) }
        let pool = DecodeWorkers(timeout: 10, testing: true)
        guard case .picture(let picture) = try pool.large(fd: fd, head: head, name: "strips.tif", options: options) else {
            Issue.record("no picture from the worker")
            return
        }
        let here = try LargeStill.decode(fd: fd, name: "strips.tif", target: (640, 360), maxPixels: 600_000)
        #expect(picture.info.width == Self.width && picture.info.height == Self.height && picture.info.videoCodec == "tiff")
        let same = picture.pixels == here.pixels
        #expect(same, "the worker's picture differs from the viewer's own")
        #expect(here.pixels.width == 1001 && here.pixels.height == 501)
    }

    @Test("A web PNG or TIFF over the budget, whole in memory, is reduced as a local one is, not decoded whole")
    func webBytesAsALocalFile() throws {
        for layout in [Fixtures.largePNGs[0], Fixtures.largeTIFFs[0]] {
            let path = try layout.path()
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let web = try StillWork.decode(bytes, name: "web", target: (640, 360), maxPixels: 600_000, displayProfile: nil)
            let local = try Self.decode(path, target: (640, 360), maxPixels: 600_000)
            #expect(web.pixels.width == 1001 && web.stored == local.stored)
            let same = web.pixels == local.pixels
            #expect(same, "\(layout): the web picture differs from the local one")
        }
    }

    /// A solid picture deflates 12 MB of rows into a few KiB: the inflater reads the stream's
    /// last bytes while rows are still to come, and where its batches end depends on how far
    /// the reading thread has got. Every read must still come out whole.
    @Test("A picture whose last compressed bytes are read before its last rows reads whole, every time",
          arguments: ["png", "tif"])
    func lastBytesBeforeLastRows(ext: String) throws {
        let png = try Fixtures.solidImage("red", width: 2000, height: 2000)
        let path = ext == "png" ? png : try Fixtures.make("solid-red-2000x2000-deflate.tif",
                                                          ["-i", png, "-compression_algo", "deflate", "-pix_fmt", "rgb24"])
        for _ in 0..<40 {
            let r = try Self.decode(path, target: (640, 360), maxPixels: 1_000_000)
            let p = Self.rgba(r.frame)
            let red = r.frame.raw.pointee.format == AV_PIX_FMT_RGBA.rawValue ? 0 : 2
            let w = Int(r.frame.raw.pointee.width), h = Int(r.frame.raw.pointee.height)
            #expect(w == h && w >= 250 && p[red] > 200 && p[1] < 50 && p[p.count - 4 + red] > 200,
                    "not the red picture: \(w)x\(h), \(p.prefix(4))")
        }
    }

    /// `png` with its IDAT chunks cut again at `sizes` (in turn, repeated): the same stream,
    /// framed as other encoders frame it, down to empty chunks and ones split across reads.
    static func rechunked(_ png: [UInt8], sizes: [Int]) -> [UInt8] {
        func word(_ p: [UInt8], _ at: Int) -> Int { p[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        func chunk(_ type: String, _ payload: ArraySlice<UInt8>) -> [UInt8] {
            let body = Array(type.utf8) + payload
            let n = payload.count, sum = crc(body[...])
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: n >> $0) } + body + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: sum >> $0) }
        }
        var before: [UInt8] = Array(png[0..<8]), stream: [UInt8] = [], after: [UInt8] = []
        var at = 8
        while at + 12 <= png.count {
            let n = word(png, at), type = String(decoding: png[at + 4..<at + 8], as: UTF8.self)
            let whole = Array(png[at..<at + 12 + n])
            if type == "IDAT" { stream += png[at + 8..<at + 8 + n] } else if stream.isEmpty { before += whole } else { after += whole }
            at += 12 + n
        }
        var out = before, from = 0, i = 0
        while from < stream.count {
            let n = min(sizes[i % sizes.count], stream.count - from)
            out += chunk("IDAT", stream[from..<from + n])
            (from, i) = (from + n, i + 1)
        }
        return out + after
    }

    @Test("IDAT chunks of any size, down to empty ones and ones split between reads, read as FFmpeg decodes them")
    func idatChunksOfAnySize() throws {
        let layout = Fixtures.largePNGs[0]
        let source = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try layout.path())))
        let reference = try Fixtures.ffmpegRGBA(try layout.path(), width: Self.width, height: Self.height)
        let framings: [(String, [Int])] = [
            ("small", [0, 1, 2, 5, 13, 4096, 0, 3]),
            // Larger than a read of the file, so a chunk's header falls across two reads.
            ("large", [1_500_000, 0, 7, 700_001, 65_536]),
        ]
        for (name, sizes) in framings {
            let path = try Fixtures.bytes("large-rgb-idat-\(name).png", Data(Self.rechunked(source, sizes: sizes)))
            let result = try Self.decode(path, target: nil, maxPixels: 1 << 40)
            let off = Self.largest(Self.rgba(result.frame), reference)
            #expect(off == 0, "IDAT chunks cut \(name): a channel differs from FFmpeg's by \(off)")
            let fitted = try Self.decode(path, target: (640, 360), maxPixels: 1_000_000)
            #expect(Int(fitted.frame.raw.pointee.width) == 1001, "IDAT chunks cut \(name): fitted \(fitted.frame.raw.pointee.width) wide")
        }
    }

    @Test("Files that cannot be read a row at a time, or are damaged, fail in one line")
    func badFiles() throws {
        let source = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.largePNGs[0].path()))
        let cut = try Fixtures.bytes("large-cut.png", source.prefix(source.count / 2))
        // The headers and directories kept (the first and last 4 KiB), the bytes between
        // overwritten with noise.
        func garbled(_ layout: Fixtures.LargeLayout, _ name: String) throws -> String {
            var noisy = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try layout.path())))
            var seed: UInt32 = 7
            for i in stride(from: 4096, to: noisy.count - 4096, by: 1) where i % 3 == 0 {
                seed = seed &* 1_103_515_245 &+ 12345
                noisy[i] = UInt8(truncatingIfNeeded: seed >> 16)
            }
            return try Fixtures.bytes(name, Data(noisy))
        }
        // A PNG whose header claims 60000 x 60000 and whose data is a few rows.
        var bomb = [UInt8](source.prefix(source.count / 8))
        bomb.replaceSubrange(16..<24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
        let claims = try Fixtures.bytes("large-claims-60000.png", Data(bomb))
        let cases: [(String, String)] = [
            (cut, "large-cut.png: the file ends before the picture does"),
            (try Fixtures.largeInterlacedPNG(), "large-interlaced.png: an interlaced PNG this large cannot be read a row at a time"),
            (try garbled(Fixtures.largeTIFFs[3], "large-garbled.tif"), "large-garbled.tif: "),
            // Deflated rows, which ISA-L inflates: a TIFF's one strip, a PNG's IDAT chunks.
            (try garbled(Fixtures.largeTIFFs[0], "large-garbled-deflate.tif"), "large-garbled-deflate.tif: the picture's compressed data is damaged"),
            (try garbled(Fixtures.largePNGs[0], "large-garbled.png"), "large-garbled.png: the picture's"),
            (claims, "large-claims-60000.png: the file ends before the picture does"),
        ]
        for (path, start) in cases {
            #expect { try Self.decode(path, target: (640, 360), maxPixels: 1_000_000) } throws: { e in
                let m = (e as? AVError)?.message ?? ""
                return m.hasPrefix(start) && !m.contains("\n")
            }
        }
    }

    @Test("The header says the stored size, PNG and TIFF in both byte orders and BigTIFF; anything else says nothing")
    func headerSizes() throws {
        for layout in Fixtures.largePNGs + Fixtures.largeTIFFs {
            let fd = open(try layout.path(), O_RDONLY | O_CLOEXEC)
            defer { close(fd) }
            var head = [UInt8](repeating: 0, count: 1024)
            let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 1024, 0) }
            let size = LargePictureHeader.size(head: Array(head.prefix(got)), fd: fd)
            #expect(size?.width == Self.width && size?.height == Self.height, "\(layout): \(String(describing: size))")
        }
        let source = try Fixtures.largeSource()
        let bigEndian = try Fixtures.tool("large-big-endian.tif", "convert") { out in [source, "-define", "tiff:endian=msb", out] }
        let fd = open(bigEndian, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 64)
        _ = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 64, 0) }
        #expect(head.starts(with: [0x4D, 0x4D]))
        #expect(LargePictureHeader.size(head: head, fd: fd)?.width == Self.width)
        for garbage: [UInt8] in [[], [0x49, 0x49, 0x2A, 0], [0x49, 0x49, 0x2A, 0, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0],
                                 [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]] {
            #expect(LargePictureHeader.size(head: garbage, fd: fd) == nil)
        }
    }
}
