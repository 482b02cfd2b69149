import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// Every still format in the confined worker: the same pixels as the viewer's own decode,
/// a damaged file one line with the next picture still shown, animations sent back as moving,
/// and a picture from the web decoded in a worker too.
@Suite(.serialized) struct StillFormatSandboxTests {
    let pool = DecodeWorkers(timeout: 10, testing: true)

    /// The quadrant card (red, green, blue, white) in each moved format, made by Debian's tools.
    static func stills() throws -> [(name: String, path: String)] {
        let png = try JPEGStillTests.quadrantPNG(width: 320, height: 240)
        return [
            ("quad.webp", try Fixtures.make("sbx-quad.webp", ["-i", png, "-c:v", "libwebp", "-quality", "80"])),
            ("quad.tiff", try Fixtures.make("sbx-quad.tiff", ["-i", png])),
            ("quad.bmp", try Fixtures.make("sbx-quad.bmp", ["-i", png])),
            ("quad.qoi", try Fixtures.make("sbx-quad.qoi", ["-i", png])),
            ("quad.avif", try Fixtures.tool("sbx-quad.avif", "avifenc") { [png, $0] }),
            ("quad.heic", try Fixtures.tool("sbx-quad.heic", "heif-enc") { ["-q", "80", png, "-o", $0] }),
            ("quad.jxl", try Fixtures.tool("sbx-quad.jxl", "cjxl") { [png, $0, "-d", "1"] }),
            ("text.svg", try Fixtures.bytes("sbx-text.svg", Data(svgWithText.utf8))),
        ]
    }

    /// Text, so librsvg needs fontconfig and a font: what the worker's warm-up must have
    /// loaded before it lost its files.
    static let svgWithText = """
        <svg xmlns="http://www.w3.org/2000/svg" width="160" height="60" viewBox="0 0 160 60">\
        <rect width="160" height="60" fill="rgb(20,90,200)"/>\
        <text x="10" y="40" font-family="sans-serif" font-size="30" fill="white">Abc 123</text></svg>
        """

    private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func inProcess(_ bytes: [UInt8], name: String, options o: PlayerOptions) throws -> StillPixels {
        try StillWork.decode(bytes, name: name, target: o.targetSize, maxPixels: o.source.maxPixels,
                             displayProfile: o.displayProfile).pixels
    }

    /// The same libraries with the same settings on both sides: the pixels are equal, to the
    /// byte. (Only AVIF differs in its settings, one thread in the worker, which changes
    /// nothing in dav1d's output.)
    @Test func everyStillFormatGivesTheSamePixelsAsInProcess() throws {
        defer { pool.stopAll() }
        var o = PlayerOptions()
        o.targetSize = (200, 150)
        for still in try Self.stills() {
            let b = try bytes(still.path)
            let worker = try pool.decodePixels(b, name: still.name, options: o)
            let here = try inProcess(b, name: still.name, options: o)
            let same = worker == here
            #expect(same, "\(still.name): the worker's pixels differ: \(worker.difference(from: here))")
            #expect(worker.width > 0 && worker.bytes.count == worker.width * worker.height * 4, "\(still.name)")
        }
        #expect(pool.picturesDecoded == 8)
    }

    /// What the player's own decoders show for AVIF, HEIC and SVG (not the worker's code
    /// run here): the same size, the same pixels.
    @Test func ownDecoderFormatsMatchThePlayersDecoders() throws {
        defer { pool.stopAll() }
        for still in try Self.stills() where [".avif", ".heic", ".svg"].contains(where: { still.name.hasSuffix($0) }) {
            let b = try bytes(still.path)
            let worker = try pool.decodePixels(b, name: still.name, options: PlayerOptions())
            let source = try #require(try PictureSources.open(b, name: still.name, options: PlayerOptions(),
                                                               colour: PictureColour(displayProfile: nil, name: still.name)))
            let frame = try #require(try source.next()).frame
            let rgba = try #require(PictureColour.rgbaCopy(of: frame))
            let player = StillPixels.of(rgba, rotation: source.info.rotation)
            let same = worker == player
            #expect(same, "\(still.name): the worker's pixels differ from the player's: \(worker.difference(from: player))")
        }
    }

    /// An SVG with text, a HEIC and an AVIF inside a worker with every confinement step on.
    @Test func svgHEICAndAVIFDecodeInAFullyConfinedWorker() throws {
        defer { pool.stopAll() }
        #expect(try #require(pool.confinement()).missing == [])
        for still in try Self.stills() where [".svg", ".heic", ".avif"].contains(where: { still.name.hasSuffix($0) }) {
            let pixels = try pool.decodePixels(try bytes(still.path), name: still.name, options: PlayerOptions())
            #expect(pixels.width > 0, "\(still.name)")
        }
        // Two workers wait: the photos worker that reported its confinement, and the one
        // made ready for drawings, which took all three: none was killed on the way. Every
        // thread they have (libde265 starts one for each HEIC) is under the syscall filter.
        let pids = pool.idlePIDs
        #expect(pids.count == 2)
        for pid in pids {
            for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
                // A thread that ended since the listing has no status left to read.
                guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
                #expect(status.contains("Seccomp:\t2\n"), "thread \(task) of the worker is not filtered")
            }
        }
        // The text was drawn in the fonts the viewer would use, not as missing-glyph boxes:
        // the same pixels as drawn here.
        let text = Array(Self.svgWithText.utf8)
        let svg = try pool.decodePixels(text, name: "text.svg", options: PlayerOptions())
        let same = try svg == inProcess(text, name: "text.svg", options: PlayerOptions())
        #expect(same, "the SVG's text is drawn differently in the worker")
        // Still a drawing to the viewer, which draws it again when it is zoomed.
        guard case .picture(let p) = try pool.still(text, name: "text.svg", options: PlayerOptions()) else {
            Issue.record("the SVG was not decoded in the worker")
            return
        }
        #expect(p.info.isScalable && p.info.width == 160 && p.info.height == 60)
    }

    /// The filter lets libheif's decoder start a thread, never a process: fork kills the worker.
    @Test func aWorkerCannotStartAProcess() throws {
        defer { pool.stopAll() }
        #expect(pool.probe("fork") == .stopped("killed by the sandbox (SIGSYS)"))
    }

    /// A cut file of each moved format: one line naming it, and the next picture decodes in
    /// a worker that is still there (or was replaced at once).
    @Test func aDamagedFileOfEachFormatGivesOneLineAndTheNextShows() throws {
        defer { pool.stopAll() }
        let good = try bytes(try JPEGStillTests.quadrantPNG(width: 320, height: 240))
        let expected = try pool.decodePixels(good, name: "good.png", options: PlayerOptions())
        // FFmpeg's QOI decoder shows a cut file's top rows without a complaint, in the viewer
        // as in the worker: there is no line to expect.
        for still in try Self.stills() where !still.name.hasSuffix(".qoi") {
            let b = try bytes(still.path)
            let cut = Array(b.prefix(b.count / 3))
            do {
                _ = try pool.decodePixels(cut, name: "cut-" + still.name, options: PlayerOptions())
                Issue.record("a cut \(still.name) decoded")
            } catch {
                #expect(error.message.hasPrefix("cut-" + still.name + ": ") && !error.message.contains("\n"),
                        "\(error.message)")
            }
            #expect(try pool.decodePixels(good, name: "good.png", options: PlayerOptions()) == expected)
        }
    }

    /// Animated WebP and AVIF asked for as stills: the worker says they move, and they are
    /// then played frame by frame (`AnimationSandboxTests`).
    @Test func animationsAreSentBackAsMoving() throws {
        defer { pool.stopAll() }
        let webp = try Fixtures.make("sbx-anim.webp", ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=5:d=0.6",
                                                       "-c:v", "libwebp_anim", "-loop", "0"])
        for (name, path) in [("anim.webp", webp), ("anim.avif", try PictureFormatTests.animatedAVIF())] {
            let outcome = try pool.still(try bytes(path), name: name, options: PlayerOptions())
            guard case .moving = outcome else { Issue.record("\(name) was not said to move"); continue }
        }
        #expect(pool.picturesDecoded == 0)
    }

    /// A photo is decoded by a worker that never loaded the drawing formats' fonts, so the
    /// first JPEG a user opens does not wait for them; an SVG then gets a worker of its own
    /// that holds them.
    @Test func aPhotoWorkerHoldsNoFonts() throws {
        defer { pool.stopAll() }
        let png = try JPEGStillTests.quadrantPNG(width: 320, height: 240)
        let jpeg = try Fixtures.make("sbx-quad.jpg", ["-i", png])
        _ = try pool.decodePixels(try bytes(jpeg), name: "quad.jpg", options: PlayerOptions())
        #expect(pool.idlePIDs.count == 1)
        let photos = try #require(pool.idlePIDs.first)
        #expect(try fontsOpen(photos) == 0, "the photo worker opened fonts")
        _ = try pool.decodePixels(Array(Self.svgWithText.utf8), name: "text.svg", options: PlayerOptions())
        let drawings = try #require(pool.idlePIDs.first { $0 != photos })
        #expect(try fontsOpen(drawings) > 0, "the drawing worker holds no fonts")
    }

    /// How many font files process `pid` has mapped (FreeType maps a font file and closes it).
    private func fontsOpen(_ pid: Int32) throws -> Int {
        // Read to the end: Foundation's whole-file read stops short on a long /proc file
        // (a ThreadSanitizer build maps hundreds of regions before the first library).
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        return Set(maps.split(separator: "\n").compactMap { line in
            line.firstRange(of: "/fonts/") == nil ? nil : line.split(separator: " ").last
        }).count
    }
}

extension StillPixels {
    /// How two decodes differ, in a few words: their sizes, or how many bytes differ and by
    /// how much at most.
    func difference(from other: StillPixels) -> String {
        guard width == other.width, height == other.height, bytes.count == other.bytes.count else {
            return "\(width)x\(height) \(format) against \(other.width)x\(other.height) \(other.format)"
        }
        let deltas = zip(bytes, other.bytes).map { abs(Int($0) - Int($1)) }.filter { $0 > 0 }
        return "\(deltas.count) of \(bytes.count) bytes, by up to \(deltas.max() ?? 0)"
    }

    /// The pixels of an RGBA frame.
    static func of(_ frame: Frame, rotation: Int) -> StillPixels {
        let f = frame.raw
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        var out: [UInt8] = []
        for y in 0..<h { out += UnsafeRawBufferPointer(start: f.pointee.data.0! + y * Int(f.pointee.linesize.0), count: w * 4) }
        return StillPixels(width: w, height: h, format: .rgba, rotation: rotation, bytes: out)
    }
}
