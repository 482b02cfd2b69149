import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Playback

/// A film whose picture data is all damaged (its header intact, as a download garbled in
/// the middle leaves it) says so in one line and plays to its end, where it used to show a
/// black window without a word.
@Suite(.serialized) struct DamagedFilmTests {
    /// x264 and AAC in MP4, its header at the end as FFmpeg writes it, every byte of the
    /// media data between replaced by noise of a fixed seed.
    static func garbledFilm() throws -> String {
        let intact = try Fixtures.make("damaged-film-intact.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30",
                                                                   "-f", "lavfi", "-i", "sine=frequency=440", "-t", "1",
                                                                   "-c:v", "libx264", "-c:a", "aac"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: intact)))
        let mdat = try #require(bytes.firstRange(of: Array("mdat".utf8))?.lowerBound)
        let moov = try #require(bytes.firstRange(of: Array("moov".utf8))?.lowerBound)
        try #require(mdat < moov, "the header is not after the media data")
        var state: UInt32 = 12345
        for i in (mdat + 4)..<(moov - 4) {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes[i] = UInt8(truncatingIfNeeded: state >> 24)
        }
        let path = Fixtures.directory + "/damaged-film-garbled.mp4"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The warnings a play of `path` to its end gives, and whether it ended.
    static func play(_ path: String) throws -> (warnings: [String], finished: Bool, frames: Int) {
        let warnings = Mutex<[String]>([])
        let d = PlayerDriver(path) { o in
            o.untimed = true
            o.onWarning = { line in warnings.withLock { $0.append(line) } }
        }
        defer { d.player.close() }
        _ = try d.ready()
        let run = d.play(limit: 10)
        return (warnings.withLock { $0 }, run.finished, run.frames.count)
    }

    @Test func aFilmWithNoPictureThatDecodesSaysSoOnce() throws {
        let result = try DamagedFilmTests.play(try DamagedFilmTests.garbledFilm())
        #expect(result.finished, "the damaged film never ended")
        #expect(result.frames == 0)
        let said = result.warnings.filter { $0.contains("damaged-film-garbled.mp4: the picture is damaged or cut short; nothing of it could be decoded") }
        #expect(said.count == 1, "warnings: \(result.warnings)")
    }

    @Test func anIntactFilmSaysNothing() throws {
        let intact = try Fixtures.make("damaged-film-intact.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30",
                                                                   "-f", "lavfi", "-i", "sine=frequency=440", "-t", "1",
                                                                   "-c:v", "libx264", "-c:a", "aac"])
        let result = try DamagedFilmTests.play(intact)
        #expect(result.finished && result.frames >= 29)
        #expect(result.warnings.isEmpty, "warnings: \(result.warnings)")
    }
}
