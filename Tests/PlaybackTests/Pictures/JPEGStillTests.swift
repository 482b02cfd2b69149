import CFFmpeg
import Foundation
@testable import MediaCore
@testable import Playback
import Synchronization
import TestSupport
import Testing
@testable import Web

/// JPEG stills through libjpeg-turbo: the size FFmpeg's `lowres` would give, the right
/// colours for every sampling and colour space it takes, pictures from damaged files,
/// clean refusals, and FFmpeg still showing what libjpeg leaves to it.
@Suite(.serialized) struct JPEGStillTests {
    typealias RGB = (r: Double, g: Double, b: Double)

    /// The reference decodes here run without a player, which is what silences FFmpeg's log.
    init() { FFmpegLog.quiet }

    /// The colours of the test card's quadrants: red, lime on top; blue, white below.
    static let quadrantColours: [RGB] = [Colour.red, Colour.green, Colour.blue, (255, 255, 255)]

    /// A PNG of four solid quadrants, the source every JPEG here is made from.
    static func quadrantPNG(width: Int, height: Int) throws -> String {
        let s = "\(width / 2)x\(height / 2)"
        return try Fixtures.make("jpeg-quad-\(width)x\(height).png", [
            "-f", "lavfi", "-i",
            "color=c=red:s=\(s)[r];color=c=lime:s=\(s)[g];color=c=blue:s=\(s)[b];color=c=white:s=\(s)[w];"
                + "[r][g]hstack[t];[b][w]hstack[u];[t][u]vstack",
            "-frames:v", "1", "-pix_fmt", "rgb24",
        ])
    }

    /// The quadrant card as a baseline JPEG from ffmpeg in `pixelFormat` (yuvj420p, yuvj422p, yuvj444p).
    static func quadrantJPEG(_ pixelFormat: String, width: Int = 320, height: Int = 240) throws -> String {
        let png = try quadrantPNG(width: width, height: height)
        return try Fixtures.make("jpeg-quad-\(width)x\(height)-\(pixelFormat).jpg",
                                 ["-i", png, "-pix_fmt", pixelFormat, "-q:v", "2"])
    }

    /// The quadrant card through ImageMagick (in the Makefile's packages), for what ffmpeg
    /// cannot write: grayscale, progressive, CMYK.
    static func magickJPEG(_ name: String, _ args: [String], width: Int = 320, height: Int = 240) throws -> String {
        let png = try quadrantPNG(width: width, height: height)
        let path = Fixtures.directory + "/jpeg-im-\(name)-\(width)x\(height).jpg"
        if FileManager.default.fileExists(atPath: path) { return path }
        let tmp = path + ".tmp-\(getpid()).jpg"
        let r = try Run.process("convert", [png] + args + [tmp], timeout: 60)
        guard r.status == 0 else { throw FixtureError("convert failed for \(name): \(r.stderr)") }
        guard rename(tmp, path) == 0 else { throw FixtureError("cannot rename \(tmp)") }
        return path
    }

    /// A solid 6000x4000 JPEG (4:2:0): the size of the bench photo, small on disk.
    static func bigSolid() throws -> String {
        try Fixtures.make("jpeg-solid-6000x4000.jpg",
                          ["-f", "lavfi", "-i", "color=c=0x3366cc:s=6000x4000", "-frames:v", "1",
                           "-pix_fmt", "yuvj420p"])
    }

    /// The first packet of `path`, as the player's demuxer reads it.
    func firstPacket(_ path: String) throws -> Packet {
        let d = try Demuxer(url: "file:" + path, options: SourceOptions())
        let p = Packet()
        while true {
            switch d.read(into: p) {
            case .packet: return p
            case .again: continue
            case .endOfFile: throw DriverError("\(path): no packet")
            case .failed(let e): throw e
            }
        }
    }

    /// libjpeg's picture of `path`.
    func decode(_ path: String, lowres: Int, maxPixels: Int = 100_000_000) throws -> Frame {
        try JPEGStill(lowres: lowres, maxPixels: maxPixels).decode(try firstPacket(path))
    }

    /// FFmpeg's picture of `path` (the reference), through the player's `Decoder`.
    func ffmpegDecode(_ path: String, lowres: Int) throws -> Frame {
        let d = try Demuxer(url: "file:" + path, options: SourceOptions())
        let dec = try Decoder(stream: d.stream(0), threads: 1, maxPixels: 100_000_000, lowres: lowres)
        _ = dec.send(try firstPacket(path))
        _ = dec.send(nil)
        let f = Frame()
        guard case .frame = dec.receive(into: f) else { throw DriverError("FFmpeg decoded nothing from \(path)") }
        return f
    }

    /// The mean colour of a `size`-pixel square centred at (fx, fy) (fractions of the frame),
    /// read straight from a BGR0 frame's memory, with no scaler in between.
    func bgr0Mean(_ frame: Frame, _ fx: Double, _ fy: Double, size: Int = 5) -> RGB {
        let f = frame.raw.pointee
        let w = Int(f.width), h = Int(f.height), stride = Int(f.linesize.0)
        let cx = min(w - 1, Int(fx * Double(w))), cy = min(h - 1, Int(fy * Double(h)))
        var r = 0.0, g = 0.0, b = 0.0, n = 0.0
        for y in max(0, cy - size / 2)...min(h - 1, cy + size / 2) {
            for x in max(0, cx - size / 2)...min(w - 1, cx + size / 2) {
                let p = f.data.0! + y * stride + x * 4
                b += Double(p[0]); g += Double(p[1]); r += Double(p[2]); n += 1
            }
        }
        return (r / n, g / n, b / n)
    }

    /// The same for any frame, converted to BGR0 at its own size first (FFmpeg's planar output).
    func anyMean(_ frame: Frame, _ fx: Double, _ fy: Double) -> RGB {
        if frame.raw.pointee.format == AV_PIX_FMT_BGR0.rawValue { return bgr0Mean(frame, fx, fy) }
        let vf = VideoFrame(frame: frame, pts: 0, duration: 0, serial: 0, rotation: 0)
        let w = vf.width, h = vf.height
        let out = Frame()
        out.raw.pointee.format = AV_PIX_FMT_BGR0.rawValue
        out.raw.pointee.width = Int32(w)
        out.raw.pointee.height = Int32(h)
        _ = av_frame_get_buffer(out.raw, 0)
        let t = ImageTarget(base: UnsafeMutableRawPointer(out.raw.pointee.data.0!), width: w, height: h,
                            stride: Int(out.raw.pointee.linesize.0))
        Scaler().render(vf, into: t, rect: PixelRect(x: 0, y: 0, width: w, height: h), quality: .best, rotation: 0)
        return bgr0Mean(out, fx, fy)
    }

    /// Quadrant centres, in the order of `quadrantColours`.
    static let centres: [(Double, Double)] = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]

    // MARK: - Size

    @Test("Each lowres halves each side, rounded up as FFmpeg does: 6000x4000 and 1001x601",
          arguments: [0, 1, 2, 3])
    func sizes(lowres: Int) throws {
        let odd = try Fixtures.make("jpeg-solid-1001x601.jpg", [
            "-f", "lavfi", "-i", "color=c=gray:s=1000x600,scale=1001:601", "-frames:v", "1", "-pix_fmt", "yuvj420p",
        ])
        for (path, w, h) in [(try Self.bigSolid(), 6000, 4000), (odd, 1001, 601)] {
            let f = try decode(path, lowres: lowres)
            let d = 1 << lowres
            let expected = ((w + d - 1) / d, (h + d - 1) / d)
            #expect(Int(f.raw.pointee.width) == expected.0 && Int(f.raw.pointee.height) == expected.1,
                    "\(w)x\(h) at lowres \(lowres): \(f.raw.pointee.width)x\(f.raw.pointee.height)")
            #expect(f.raw.pointee.format == AV_PIX_FMT_BGR0.rawValue)
            #expect(Int(f.raw.pointee.linesize.0) >= expected.0 * 4)
            // And exactly what FFmpeg's own lowres gives, so the two paths are interchangeable.
            let ff = try ffmpegDecode(path, lowres: lowres)
            #expect(ff.raw.pointee.width == f.raw.pointee.width && ff.raw.pointee.height == f.raw.pointee.height,
                    "FFmpeg: \(ff.raw.pointee.width)x\(ff.raw.pointee.height)")
        }
        #expect(JPEGStill(lowres: 2, maxPixels: 1).lowres == 2)
        #expect(JPEGStill(lowres: 7, maxPixels: 1).lowres == 3, "libjpeg scales to 1/8 at most")
    }

    @Test("The 6000x4000 photo case: 1500x1000 at lowres 2, its colour right to the corners")
    func bigPhoto() throws {
        let f = try decode(try Self.bigSolid(), lowres: 2)
        #expect(f.raw.pointee.width == 1500 && f.raw.pointee.height == 1000)
        for (x, y) in [(0.0, 0.0), (0.999, 0.0), (0.0, 0.999), (0.999, 0.999), (0.5, 0.5)] {
            let c = bgr0Mean(f, x, y, size: 1)
            #expect(Colour.near(c, (0x33, 0x66, 0xcc), tolerance: 6), "at (\(x), \(y)): \(Colour.text(c))")
        }
    }

    // MARK: - Colour

    /// Every quadrant of `path` at every lowres: the expected colour, and FFmpeg's colour.
    func checkQuadrants(_ path: String, expected: [RGB]?, tolerance: Double = 12) throws {
        for lowres in 0...3 {
            let f = try decode(path, lowres: lowres)
            let ff = try ffmpegDecode(path, lowres: lowres)
            for (i, (x, y)) in Self.centres.enumerated() {
                let c = bgr0Mean(f, x, y)
                if let expected {
                    #expect(Colour.near(c, expected[i], tolerance: tolerance),
                            "\(path) lowres \(lowres) quadrant \(i): \(Colour.text(c))")
                }
                let r = anyMean(ff, x, y)
                #expect(Colour.near(c, r, tolerance: tolerance),
                        "\(path) lowres \(lowres) quadrant \(i): libjpeg \(Colour.text(c)), FFmpeg \(Colour.text(r))")
            }
        }
    }

    @Test("Baseline 4:2:0, 4:2:2 and 4:4:4 from ffmpeg decode to the card's colours at every lowres",
          arguments: ["yuvj420p", "yuvj422p", "yuvj444p"])
    func sampling(pixelFormat: String) throws {
        try checkQuadrants(try Self.quadrantJPEG(pixelFormat), expected: Self.quadrantColours)
    }

    @Test("Odd-sized 4:2:0 keeps its colours up to the last row and column")
    func oddSizeEdges() throws {
        let path = try Fixtures.make("jpeg-quad-odd-333x251.jpg", [
            "-i", try Self.quadrantPNG(width: 320, height: 240), "-vf", "scale=333:251:flags=neighbor",
            "-pix_fmt", "yuvj420p", "-q:v", "2",
        ])
        let f = try decode(path, lowres: 0)
        #expect(f.raw.pointee.width == 333 && f.raw.pointee.height == 251)
        // The bottom-right pixel is white, the bottom-left blue: a stride or a last-row slip shows here.
        #expect(Colour.near(bgr0Mean(f, 1, 1, size: 1), (255, 255, 255), tolerance: 12))
        #expect(Colour.near(bgr0Mean(f, 0, 1, size: 1), Colour.blue, tolerance: 25))
    }

    @Test("Progressive 4:2:0 (ImageMagick) decodes to the card's colours")
    func progressive() throws {
        let path = try Self.magickJPEG("progressive",
                                       ["-interlace", "JPEG", "-sampling-factor", "2x2", "-quality", "95"])
        // The file really is progressive (SOF2), or this would test baseline again.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(zip(bytes, bytes.dropFirst()).contains { $0 == 0xFF && $1 == 0xC2 }, "no SOF2 marker")
        try checkQuadrants(path, expected: Self.quadrantColours)
    }

    @Test("Grayscale (ImageMagick) comes out grey, as bright as FFmpeg shows it")
    func grayscale() throws {
        let path = try Self.magickJPEG("gray", ["-colorspace", "Gray", "-quality", "95"])
        let reference = try ffmpegDecode(path, lowres: 0)
        #expect(reference.raw.pointee.format == AV_PIX_FMT_GRAY8.rawValue, "the fixture is not a one-component JPEG")
        try checkQuadrants(path, expected: nil, tolerance: 4)
        let f = try decode(path, lowres: 1)
        var levels: [Double] = []
        for (x, y) in Self.centres {
            let c = bgr0Mean(f, x, y)
            #expect(abs(c.r - c.g) < 1 && abs(c.g - c.b) < 1, "not grey: \(Colour.text(c))")
            levels.append(c.g)
        }
        // red, lime, blue, white in luma order: blue < red < lime < white.
        #expect(levels[2] < levels[0] && levels[0] < levels[1] && levels[1] < levels[3], "levels \(levels)")
    }

    // MARK: - Damage and refusals

    /// The top 40 % red, the rest blue, with noise so the coded data spreads over the file.
    static func redOverBlue() throws -> String {
        try Fixtures.make("jpeg-red-over-blue.jpg", [
            "-f", "lavfi", "-i",
            "color=c=red:s=640x192[a];color=c=blue:s=640x288[b];[a][b]vstack,noise=alls=12:allf=t",
            "-frames:v", "1", "-pix_fmt", "yuvj420p", "-q:v", "3",
        ])
    }

    @Test("A JPEG cut at 25 % is reported as truncated, not filled in as if whole; libjpeg prints nothing",
          arguments: [0, 2])
    func truncated(lowres: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: try Self.redOverBlue()))
        let path = try Fixtures.bytes("jpeg-cut-25.jpg", data.prefix(data.count / 4))
        let packet = try firstPacket(path)
        let (frame, stderr) = capturingStandardError {
            Result { () throws(AVError) -> Frame in
                try JPEGStill(lowres: lowres, maxPixels: 100_000_000).decode(packet)
            }
        }
        #expect(stderr.isEmpty, "libjpeg wrote to stderr: \(stderr)")
        guard case .failure(let e) = frame else { Issue.record("a cut JPEG decoded as whole"); return }
        #expect(e.code == JPEGStill.truncatedCode && e.message.contains("truncated"), "\(e.message)")
        #expect(!e.message.contains("\n"))
    }

    @Test("A cut JPEG through the player: no picture shown as whole, the item reports the truncation")
    func truncatedInPlayer() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: try Self.redOverBlue()))
        let path = try Fixtures.bytes("jpeg-cut-25-player.jpg", data.prefix(data.count / 4))
        // The in-process decode stage's handling; through the worker the item fails at open
        // with the same line (SandboxTests).
        let d = PlayerDriver(path) { $0.untimed = true; $0.sandbox = .off }
        defer { d.player.close() }
        _ = try d.ready()
        let rest = d.play(limit: 5)
        #expect(rest.finished && rest.frames.isEmpty, "\(rest.frames.count) frames")
        let e = try #require(d.player.streamError, "the truncation was not reported")
        #expect(e.message.contains("jpeg-cut-25-player.jpg") && e.message.contains("truncated"), "\(e.message)")
    }

    @Test("Random bytes and a JPEG start followed by noise fail with one line, no crash")
    func noise() throws {
        var x: UInt32 = 424_242
        let noise = (0..<65536).map { _ -> UInt8 in x = x &* 1_664_525 &+ 1_013_904_223; return UInt8(x >> 24) }
        for (name, bytes) in [("plain", noise), ("soi", [0xFF, 0xD8, 0xFF] + noise)] {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
            defer { buffer.deallocate() }
            buffer.copyBytes(from: bytes)
            let (result, stderr) = capturingStandardError {
                Result { () throws(AVError) -> Frame in
                    try JPEGStill(lowres: 0, maxPixels: 100_000_000).decode(UnsafeRawBufferPointer(buffer))
                }
            }
            #expect(stderr.isEmpty, "\(name): libjpeg wrote \(stderr)")
            switch result {
            case .success(let f):
                Issue.record("\(name): noise decoded to \(f.raw.pointee.width)x\(f.raw.pointee.height)")
            case .failure(let e):
                #expect(e.message.hasPrefix("libjpeg: ") && e.message.count > 10, "\(name): \(e.message)")
                #expect(!e.message.contains("\n"), "\(name): not one line: \(e.message)")
            }
        }
        let empty = Result { () throws(AVError) -> Frame in
            try JPEGStill(lowres: 0, maxPixels: 1).decode(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        #expect(throws: AVError.self) { try empty.get() }
        // Through the player, noise named .jpg ends cleanly, whichever decoder saw it.
        let path = try Fixtures.bytes("jpeg-noise.jpg", Data([0xFF, 0xD8, 0xFF] + noise))
        let d = PlayerDriver(path) { $0.untimed = true }
        defer { d.player.close() }
        switch d.waitOpened(timeout: 5) {
        case .opening: Issue.record("still opening")
        case .failed(let e): #expect(!e.message.isEmpty && !e.message.contains("\n"))
        case .ready: #expect(d.play(limit: 5).finished, "never finished")
        }
    }

    @Test("Over the pixel budget a JPEG is decoded reduced to fit it; past an eighth it is refused from the header alone")
    func budget() throws {
        let path = try Self.bigSolid()
        let packet = try firstPacket(path)
        // 24 MP under 20 MP: half the size (6 MP) is the least reduction that fits.
        let halved = try JPEGStill(lowres: 0, maxPixels: 20_000_000).decode(packet)
        #expect(halved.raw.pointee.width == 3000 && halved.raw.pointee.height == 2000)
        // Asked for more reduction than the budget needs, it keeps what it was asked for.
        let eighth = try JPEGStill(lowres: 3, maxPixels: 20_000_000).decode(packet)
        #expect(eighth.raw.pointee.width == 750, "width \(eighth.raw.pointee.width)")
        // Even an eighth (750x500, 375,000 pixels) is over 300,000: refused before anything is allocated.
        let before = ProcSelf.rssKB
        let start = MonotonicClock.seconds()
        let refused = Result { () throws(AVError) -> Frame in
            try JPEGStill(lowres: 0, maxPixels: 300_000).decode(packet)
        }
        let took = MonotonicClock.seconds() - start
        guard case .failure(let e) = refused else {
            Issue.record("24 MP decoded under a 0.3 MP budget")
            return
        }
        #expect(e.message.contains("6000x4000") && e.message.contains("limit"), "message: \(e.message)")
        #expect(ProcSelf.rssKB - before < 20_000, "RSS grew by \(ProcSelf.rssKB - before) kB")
        #expect(took < 0.05, "refusing took \(took) s")
        // Just enough budget for the eighth: it decodes.
        let ok = try JPEGStill(lowres: 0, maxPixels: 375_000).decode(packet)
        #expect(ok.raw.pointee.width == 750)
    }

    @Test("Timestamps come from the packet, as avcodec_receive_frame sets them")
    func timestamps() throws {
        let packet = try firstPacket(try Self.quadrantJPEG("yuvj420p"))
        packet.raw.pointee.pts = 7
        packet.raw.pointee.dts = 7
        packet.raw.pointee.duration = 3
        let first = try JPEGStill(lowres: 0, maxPixels: 100_000_000).decode(packet)
        let f = first.raw.pointee
        #expect(f.pts == 7 && f.best_effort_timestamp == 7 && f.pkt_duration == 3)
        packet.raw.pointee.pts = cff_nopts
        let second = try JPEGStill(lowres: 0, maxPixels: 100_000_000).decode(packet)
        let g = second.raw.pointee
        #expect(g.pts == cff_nopts && g.best_effort_timestamp == 7, "falls back to dts like FFmpeg")
        withExtendedLifetime((first, second)) {}
    }

    @Test("A JFIF pixel aspect other than 1:1 is kept, as FFmpeg keeps it")
    func aspect() throws {
        let path = try Fixtures.make("jpeg-sar-2-1.jpg", [
            "-i", try Self.quadrantPNG(width: 320, height: 240), "-vf", "setsar=2/1", "-pix_fmt", "yuvj420p",
        ])
        let ours = try decode(path, lowres: 0), theirs = try ffmpegDecode(path, lowres: 0)
        let f = ours.raw.pointee.sample_aspect_ratio, ff = theirs.raw.pointee.sample_aspect_ratio
        defer { withExtendedLifetime((ours, theirs)) {} }
        #expect(f.num == 2 && f.den == 1, "libjpeg path: \(f.num):\(f.den)")
        #expect(f.num == ff.num && f.den == ff.den, "FFmpeg: \(ff.num):\(ff.den)")
    }

    // MARK: - Left to FFmpeg

    @Test("A CMYK/YCCK JPEG (ImageMagick) is left to FFmpeg, which shows it in its colours")
    func cmyk() throws {
        let path = try Self.magickJPEG("cmyk", ["-colorspace", "CMYK", "-quality", "95"])
        let packet = try firstPacket(path)
        let refused = Result { () throws(AVError) -> Frame in
            try JPEGStill(lowres: 0, maxPixels: 100_000_000).decode(packet)
        }
        guard case .failure(let e) = refused else {
            Issue.record("libjpeg took a 4-component JPEG")
            return
        }
        #expect(e.code == cff_averror(ENOSYS), "not marked as 'left to FFmpeg': \(e.code) \(e.message)")
        #expect(e.message.contains("CMYK") || e.message.contains("YCCK"), "message: \(e.message)")
        let d = PlayerDriver(path) { $0.untimed = true; $0.targetSize = (100, 75) }
        defer { d.player.close() }
        _ = try d.ready()
        let f = try #require(d.firstFrame(limit: 5), "FFmpeg showed nothing after libjpeg declined")
        #expect(f.pixelFormatName != "bgr0", "shown as \(f.pixelFormatName)")
        for (i, (x, y)) in Self.centres.enumerated() {
            let c = anyMean(f.frame, x, y)
            #expect(Colour.near(c, Self.quadrantColours[i], tolerance: 20), "quadrant \(i): \(Colour.text(c))")
        }
        #expect(d.play(limit: 5).finished)
    }

    // MARK: - In the player

    @Test("In the player a 6000x4000 JPEG for a 1280x720 window comes from libjpeg at 1500x1000, then the end")
    func inPlayer() throws {
        let d = PlayerDriver(try Self.bigSolid()) { $0.untimed = true; $0.targetSize = (1280, 720) }
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.kind == .image && info.width == 6000 && info.height == 4000)
        let f = try #require(d.firstFrame(limit: 5), "nothing shown")
        #expect(f.width == 1500 && f.height == 1000, "\(f.width)x\(f.height)")
        #expect(f.pixelFormatName == "bgr0", "decoded as \(f.pixelFormatName), not by libjpeg")
        #expect(f.pts == 0 && f.serial == d.player.engine.serial.current)
        #expect(f.displaySize == (1500, 1000))
        #expect(Colour.near(f.averageColor(), (0x33, 0x66, 0xcc), tolerance: 8))
        let rest = d.play(limit: 5)
        #expect(rest.finished && rest.frames.isEmpty, "\(rest.frames.count) more, finished \(rest.finished)")
    }

    @Test("Without a target size the JPEG is decoded whole, still by libjpeg")
    func fullSize() throws {
        let d = PlayerDriver(try Self.quadrantJPEG("yuvj420p")) { $0.untimed = true }
        defer { d.player.close() }
        _ = try d.ready()
        let f = try #require(d.firstFrame(limit: 5))
        #expect(f.width == 320 && f.height == 240 && f.pixelFormatName == "bgr0")
        for (i, (x, y)) in Self.centres.enumerated() {
            #expect(Colour.near(anyMean(f.frame, x, y), Self.quadrantColours[i], tolerance: 12), "quadrant \(i)")
        }
    }

    /// Runs `body` with file descriptor 2 sent to a file, and returns what was written there.
    func capturingStandardError<T>(_ body: () throws -> T) rethrows -> (T, String) {
        let path = Fixtures.directory + "/.stderr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
        let saved = dup(2)
        fflush(nil)
        dup2(fd, 2)
        defer { unlink(path) }
        let result: T
        do {
            result = try body()
        } catch {
            fflush(nil); dup2(saved, 2); close(saved); close(fd)
            throw error
        }
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        close(fd)
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        return (result, text)
    }
}
