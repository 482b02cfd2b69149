import CFFmpeg
import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// The detail tiles of a zoomed JPEG over the pixel budget decoded in a confined worker:
/// the same pixels as the viewer's own decode (colour managed from the file's profile to
/// the display's), the worker under the syscall filter, and a worker that stops ending only
/// the tiles.
@Suite(.serialized) struct RegionSandboxTests {
    init() { FFmpegLog.quiet }

    /// A 1024x1024 photo carrying a wide-gamut ICC profile, so lcms2 has work to do.
    static func taggedPhoto() throws -> String {
        let plain = try Fixtures.make("rsbx-photo-1024.jpg", ["-f", "lavfi", "-i", "testsrc2=s=1024x1024", "-frames:v", "1", "-q:v", "2"])
        let icc = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try ColourProfiles.wideGamut())))
        return try Fixtures.bytes("rsbx-photo-1024-wide-gamut.jpg",
                                  ColourProfiles.jpeg(try Data(contentsOf: URL(fileURLWithPath: plain)), withICC: icc))
    }

    /// Every tile's pixels, row by row, as bytes.
    static func bytes(_ grid: [[VideoFrame]]) -> [[UInt8]] {
        grid.joined().map { tile in
            let f = tile.frame.raw
            let w = Int(f.pointee.width), h = Int(f.pointee.height), stride = Int(f.pointee.linesize.0)
            return (0..<h).flatMap { y in Array(UnsafeBufferPointer(start: f.pointee.data.0! + y * stride, count: w * 4)) }
        }
    }

    @Test("Tiles from the worker are the viewer's own, byte for byte: plain, colour managed, and to a display profile")
    func sameAsInProcess() throws {
        let p3 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try ColourProfiles.displayP3())))
        let cases: [(String, Int, ClosedRange<Int>, ClosedRange<Int>, [UInt8]?)] = [
            (try Fixtures.gigapixelJPEG(), 0, 9...10, 18...19, nil),
            (try Fixtures.gigapixelJPEG(), 1, 4...4, 9...9, p3),
            (try Self.taggedPhoto(), 0, 0...1, 0...1, nil),
            (try Self.taggedPhoto(), 0, 1...1, 0...1, p3),
        ]
        for (path, level, rows, columns, display) in cases {
            let boxed = try SandboxedRegions.open(path: path, mode: .automatic)
            let here = try SandboxedRegions.open(path: path, mode: .off)
            let pid = try #require((boxed as? SandboxedRegions)?.pid, "the tiles were not decoded in a worker")
            #expect(here is JPEGRegions)
            #expect(boxed.width == here.width && boxed.height == here.height)
            let a = try boxed.tiles(level: level, rows: rows, columns: columns, side: 512, displayProfile: display)
            let b = try here.tiles(level: level, rows: rows, columns: columns, side: 512, displayProfile: display)
            #expect(a.map { $0.map(\.width) } == b.map { $0.map(\.width) } && a.map { $0.map(\.height) } == b.map { $0.map(\.height) })
            #expect(a.joined().map(\.pixelFormatName) == b.joined().map(\.pixelFormatName))
            #expect(Self.bytes(a) == Self.bytes(b), "\(path) level \(level): the worker's tiles differ")
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            #expect(status.contains("Seccomp:\t2\n") && status.contains("NoNewPrivs:\t1\n"), "the tiles' worker is not confined")
        }
    }

    @Test("A piece outside the picture is refused in one line and the next one decodes; a killed worker ends the tiles")
    func badRequestsAndAKilledWorker() throws {
        let source = try SandboxedRegions.open(path: try Self.taggedPhoto(), mode: .automatic)
        let boxed = try #require(source as? SandboxedRegions)
        #expect(throws: AVError.self) { try boxed.tiles(level: 0, rows: 5...5, columns: 0...0, side: 512, displayProfile: nil) }
        #expect(try boxed.tiles(level: 0, rows: 0...0, columns: 0...0, side: 512, displayProfile: nil).count == 1)
        let pid = try #require(boxed.pid)
        kill(pid, SIGKILL)
        #expect { try boxed.tiles(level: 0, rows: 1...1, columns: 1...1, side: 512, displayProfile: nil) } throws: { e in
            (e as? AVError)?.message == "rsbx-photo-1024-wide-gamut.jpg: the decoder stopped: killed (SIGKILL)"
        }
        #expect(boxed.pid == nil)
        #expect(kill(pid, 0) != 0, "the killed worker was not reaped")
        #expect(throws: AVError.self) { try boxed.tiles(level: 0, rows: 0...0, columns: 0...0, side: 512, displayProfile: nil) }
    }

    @Test("A file that is no JPEG is refused in one line, from the worker")
    func notAJPEG() throws {
        let path = try Fixtures.bytes("rsbx-not-a-jpeg.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 200)))
        #expect(throws: AVError.self) { try SandboxedRegions.open(path: path, mode: .automatic) }
        #expect(throws: AVError.self) { try SandboxedRegions.open(path: "/nonexistent/photo.jpg", mode: .automatic) }
    }

    @Test("Answers a subverted worker could send are refused: another size, another format, a short memfd")
    func malformedAnswers() throws {
        let area = try TileGrid(size: (1024, 1024), rows: 0...0, columns: 0...1, side: 512)
        let pixels = [UInt8](repeating: 9, count: 1024 * 512 * 4)
        let fd = try #require(pixels.withUnsafeBytes { SealedBytes.make([$0], name: "test") })
        defer { close(fd) }
        let bgr0 = Int64(AV_PIX_FMT_BGR0.rawValue)
        #expect(RegionRequest.tiles(in: WorkerMessage(kind: .picture, numbers: [1024, 512, bgr0], fd: fd), area: area)?.joined().count == 2)
        #expect(RegionRequest.tiles(in: WorkerMessage(kind: .picture, numbers: [1024, 513, bgr0], fd: fd), area: area) == nil)
        #expect(RegionRequest.tiles(in: WorkerMessage(kind: .picture, numbers: [1024, 512, Int64(AV_PIX_FMT_YUV420P.rawValue)], fd: fd),
                                    area: area) == nil)
        let short = try #require(pixels.prefix(1000).withUnsafeBytes { SealedBytes.make([$0], name: "test") })
        defer { close(short) }
        #expect(RegionRequest.tiles(in: WorkerMessage(kind: .picture, numbers: [1024, 512, bgr0], fd: short), area: area) == nil)
        #expect(RegionRequest.size(in: WorkerMessage(kind: .regionsSize, numbers: [70_000, 10])) == nil)
    }
}
