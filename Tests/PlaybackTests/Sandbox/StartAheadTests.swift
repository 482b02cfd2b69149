import Foundation
import Testing
import TestSupport
@testable import Playback

/// The worker a launch's first still needs is started while the program itself starts, and
/// that still is decoded by it: never by a second worker started beside it, even when the
/// still is asked for before the first worker is ready.
@Suite(.serialized) struct StartAheadTests {
    init() { FFmpegLog.quiet }

    /// A PNG's worker, started ahead, decodes the PNG, and is the only one ever started.
    @Test func theStillIsDecodedByTheWorkerStartedAhead() throws {
        let pool = DecodeWorkers(timeout: 10, testing: true)
        defer { pool.stopAll() }
        let png = try Fixtures.solidImage("red", width: 64, height: 48)
        pool.startAhead(for: png)
        let deadline = Date().addingTimeInterval(10)
        while pool.idlePIDs.isEmpty && Date() < deadline { usleep(2_000) }
        let ahead = pool.idlePIDs
        #expect(ahead.count == 1, "no worker was started ahead")
        guard case .picture(let p) = try pool.still(Array(try Data(contentsOf: URL(fileURLWithPath: png))),
                                                    name: "red.png", options: PlayerOptions()) else {
            Issue.record("the PNG was not decoded in a worker")
            return
        }
        #expect(p.info.width == 64 && p.info.height == 48)
        #expect(pool.idlePIDs == ahead, "another worker than the one started ahead decoded the PNG")
    }

    /// A still asked for while its worker is still starting waits for that worker: one
    /// process in all, where two would have linked their libraries side by side.
    @Test func aStillAskedForDuringTheStartWaitsForThatWorker() throws {
        let pool = DecodeWorkers(timeout: 10, testing: true)
        defer { pool.stopAll() }
        let jpeg = try Fixtures.solidImage("blue", width: 64, height: 48, ext: "jpg")
        pool.startAhead(for: jpeg)
        guard case .picture(let p) = try pool.still(Array(try Data(contentsOf: URL(fileURLWithPath: jpeg))),
                                                    name: "blue.jpg", options: PlayerOptions()) else {
            Issue.record("the JPEG was not decoded in a worker")
            return
        }
        #expect(p.info.width == 64)
        #expect(pool.idlePIDs.count == 1, "a second worker was started beside the one starting ahead: \(pool.idlePIDs)")
        #expect(pool.picturesDecoded == 1)
    }

    /// Sound, a folder, a pipe and a missing file start nothing; a web address is judged by
    /// its extension, a drawing gets the drawings worker, a GIF (played by a worker frame by
    /// frame) the photos worker, and a video (MP4, WebM, Matroska, by its first bytes or its
    /// address) the worker that decodes its pictures.
    @Test func onlyAPictureOrAVideoStartsAWorkerAhead() throws {
        let fifo = NSTemporaryDirectory() + "start-ahead-\(getpid()).fifo"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let none = [try Fixtures.tone(440), try Fixtures.tone(440, ext: "m4a"), NSTemporaryDirectory(), fifo,
                    "/nonexistent/picture.png", "https://example.invalid/song.mp3", "https://example.invalid/photo"]
        for path in none {
            #expect(DecodeWorkers.kindAhead(for: path) == nil, "\(path) would start a worker")
        }
        let pool = DecodeWorkers(timeout: 10, testing: true)
        for path in none { pool.startAhead(for: path) }
        #expect(pool.idlePIDs.isEmpty)
        let videos = [try Fixtures.colourSeconds(), try Fixtures.solidVideo("red", codec: "libvpx-vp9", ext: "webm"),
                      try Fixtures.chapteredVideo(), "https://example.invalid/clip.mp4"]
        for path in videos { #expect(DecodeWorkers.kindAhead(for: path) == .media, "\(path)") }
        #expect(DecodeWorkers.kindAhead(for: try Fixtures.solidImage("red", width: 64, height: 48)) == .photos)
        #expect(DecodeWorkers.kindAhead(for: try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 50)) == .photos)
        #expect(DecodeWorkers.kindAhead(for: "https://example.invalid/a/photo.JPG?size=big") == .jpegs)
        #expect(DecodeWorkers.kindAhead(for: "https://example.invalid/a/photo.png") == .photos)
        #expect(DecodeWorkers.kindAhead(for: try Fixtures.solidImage("red", width: 64, height: 48, ext: "jpg")) == .jpegs)
        #expect(DecodeWorkers.kindAhead(for: "https://example.invalid/logo.svg") == .drawings)
        let svg = try Fixtures.bytes("start-ahead.svg", Data(StillFormatSandboxTests.svgWithText.utf8))
        #expect(DecodeWorkers.kindAhead(for: svg) == .drawings)
    }
}
