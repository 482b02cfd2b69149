import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing
@testable import Web

/// Missing, empty, corrupt and hostile files end in bounded time: a clean failure with a
/// reason, or (for damaged media) whatever decodes, then the end.
@Suite(.serialized) struct BadInputTests {
    /// How a file ended when played to the end (sound off, untimed).
    enum Outcome {
        case failed(String)
        case played(frames: Int, finished: Bool)
    }

    /// Opens and plays `path`, and checks it all took under `limit` seconds.
    func outcome(_ path: String, limit: Double = 5, configure: (inout PlayerOptions) -> Void = { _ in }) -> Outcome {
        let start = MonotonicClock.seconds()
        let d = PlayerDriver(path) { $0.untimed = true; configure(&$0) }
        defer {
            d.player.close()
            let took = MonotonicClock.seconds() - start
            #expect(took < limit, "\(path) took \(took) s")
        }
        switch d.waitOpened(timeout: limit) {
        case .failed(let e): return .failed(e.message)
        case .opening: return .failed("STILL OPENING")
        case .ready:
            let run = d.play(limit: limit)
            return .played(frames: run.frames.count, finished: run.finished)
        }
    }

    /// Expects a clean failure whose message names the file and says `words`.
    func expectFailure(_ path: String, saying words: String? = nil) {
        guard case .failed(let m) = outcome(path) else {
            Issue.record("\(path) did not fail")
            return
        }
        #expect(m != "STILL OPENING", "\(path) hung while opening")
        let name = (path as NSString).lastPathComponent
        #expect(m.contains(name), "message does not name the file: \(m)")
        if let words { #expect(m.lowercased().contains(words), "message: \(m)") }
    }

    @Test("A missing file fails with 'no such file'")
    func missing() {
        expectFailure(Fixtures.directory + "/pt-does-not-exist.mp4", saying: "no such file")
    }

    @Test("An empty file, random bytes and HTML named .jpg fail cleanly")
    func notMedia() throws {
        expectFailure(try Fixtures.bytes("pt-empty.mp4", Data()))
        // Deterministic "random" bytes (an LCG), so a failure can be reproduced.
        var x: UInt32 = 12345
        let noise = (0..<65536).map { _ -> UInt8 in x = x &* 1_664_525 &+ 1_013_904_223; return UInt8(x >> 24) }
        expectFailure(try Fixtures.bytes("pt-noise.bin", Data(noise)))
        expectFailure(try Fixtures.bytes("pt-noise.mp4", Data(noise)))
        let html = "<!doctype html><html><head><title>404</title></head><body>Not found</body></html>\n"
        expectFailure(try Fixtures.bytes("pt-page.jpg", Data(html.utf8)))
    }

    @Test("A directory named .mp4 fails cleanly")
    func directory() throws {
        let dir = Fixtures.directory + "/pt-folder.mp4"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        expectFailure(dir)
    }

    @Test("An mp4 cut in half (index at the end) fails cleanly")
    func truncatedMP4() throws {
        let full = try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 2)
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        expectFailure(try Fixtures.bytes("pt-half.mp4", data.prefix(data.count / 2)))
    }

    @Test("Half a JPEG shows its top or fails cleanly, in bounded time")
    func halfJPEG() throws {
        let full = try Fixtures.solidImage("blue", width: 640, height: 480, ext: "jpg")
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let path = try Fixtures.bytes("pt-half.jpg", data.prefix(data.count / 2))
        switch outcome(path) {
        case .failed(let m): #expect(m != "STILL OPENING" && !m.isEmpty)
        case .played(let frames, let finished): #expect(frames <= 1 && finished, "\(frames) frames, finished \(finished)")
        }
    }

    /// A PNG that declares `w`x`h` (8-bit RGB) with a valid CRC, and one empty IDAT.
    static func hugePNG(_ w: UInt32, _ h: UInt32) -> Data {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let tb = Array(type.utf8) + body
            return be(UInt32(body.count)) + tb + be(crc32(tb))
        }
        let ihdr = be(w) + be(h) + [8, 2, 0, 0, 0]
        // zlib: header, one empty final stored block, Adler-32 of nothing.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat)
                    + chunk("IEND", []))
    }

    /// CRC-32 (ISO-HDLC, as PNG uses), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    @Test("crc32 matches the known check value")
    func crcCheck() {
        #expect(Self.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    /// Over the pixel budget a PNG is read a few rows at a time into a reduced picture, so a
    /// header claiming gigapixels costs nothing until rows come; with none, it fails there.
    @Test("A PNG declaring enormous dimensions and holding no rows fails in one line, naming the file, without allocating",
          arguments: [(UInt32(100_000), UInt32(100_000)), (12_000, 12_000)])
    func enormousPNG(w: UInt32, h: UInt32) throws {
        let path = try Fixtures.bytes("pt-huge-\(w)x\(h).png", Self.hugePNG(w, h))
        let before = ProcSelf.rssKB
        let result = outcome(path)
        let grew = ProcSelf.rssKB - before
        guard case .failed(let m) = result else {
            Issue.record("a \(w)x\(h) PNG with no rows was not refused: \(result)")
            return
        }
        #expect(m.hasPrefix("pt-huge-\(w)x\(h).png: ") && !m.contains("\n") && m != "STILL OPENING", "message: \(m)")
        #expect(grew < 200_000, "RSS grew by \(grew) kB")
    }

    @Test("The pixel limit is an option: under a 1 MP budget a 2000x2000 PNG is shown halved, under the default whole")
    func pixelBudgetOption() throws {
        let path = try Fixtures.solidImage("red", width: 2000, height: 2000)
        for (budget, side) in [(1_000_000, 1000), (100_000_000, 2000)] {
            let d = PlayerDriver(path) { $0.untimed = true; $0.source.maxPixels = budget }
            let opened = d.waitOpened(timeout: 10)
            guard case .ready(let info) = opened else {
                Issue.record("not opened under a budget of \(budget): \(opened)")
                continue
            }
            #expect(info.width == 2000 && info.height == 2000, "the stored size is the picture's")
            var shown: VideoFrame?
            let end = MonotonicClock.seconds() + 10
            while shown == nil, MonotonicClock.seconds() < end {
                if case .show(let f) = d.player.nextFrame() { shown = f } else { usleep(5_000) }
            }
            #expect(shown?.width == side && shown?.height == side, "budget \(budget): shown \(String(describing: shown?.width))")
        }
    }

    @Test("A video with bit flips in the middle plays some frames and finishes")
    func bitFlips() throws {
        let full = try Fixtures.solidVideo("lime", width: 320, height: 240, seconds: 2, tone: 440)
        var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: full)))
        // Flip bits in the middle 40 % of the file (the media data, not the index at the end
        // or the header at the start), every 97th byte.
        var i = data.count * 3 / 10
        while i < data.count * 7 / 10 { data[i] ^= 0x5A; i += 97 }
        let path = try Fixtures.bytes("pt-flipped.mp4", Data(data))
        switch outcome(path, limit: 8) {
        case .failed(let m): Issue.record("a damaged video failed instead of playing: \(m)")
        case .played(let frames, let finished):
            #expect(finished)
            #expect(frames >= 10, "only \(frames) frames decoded")
        }
        // And with sound on and real timing, it still ends in about its length.
        let start = MonotonicClock.seconds()
        let d = PlayerDriver(path, audio: true)
        defer { d.player.close() }
        _ = try d.ready()
        let run = d.play(limit: 6)
        #expect(run.finished && !run.frames.isEmpty)
        #expect(MonotonicClock.seconds() - start < 4, "took \(MonotonicClock.seconds() - start) s")
    }
}

/// Timeouts from any caller are clamped where they become integers, never trapped on.
@Suite struct TimeoutClampTests {
    @Test("Absurd timeouts become usable clocks: no trap, within [0.1 s, a day]",
          arguments: [1e308, -1, Double.nan, Double.infinity, -Double.infinity, 1e20, 0])
    func clamped(seconds: Double) {
        var o = SourceOptions()
        o.networkTimeout = seconds
        #expect(o.effectiveTimeout >= 0.1 && o.effectiveTimeout <= 86_400)
        let options = o.formatOptions(for: "http://127.0.0.1/x.mp4")
        let micros = options.first { $0.0 == "rw_timeout" }.flatMap { Int64($0.1) }
        #expect(micros != nil && micros! >= 100_000 && micros! <= 86_400_000_000)
        let i = Interrupt(timeout: seconds)
        i.arm()
        #expect(!i.shouldStop())
    }
}

/// The one helper every message, title and log line shows addresses through.
@Suite struct URLRedactionTests {
    @Test("User information and token-like parameters are masked, the rest is kept")
    func masks() {
        #expect(SourceOptions.redacted("https://bob:pw@h.example:8443/a/b.mp4?x=1&token=T&Sig=S#access_token=A")
            == "https://***@h.example:8443/a/b.mp4?x=1&token=***&Sig=***#access_token=***")
        #expect(SourceOptions.redacted("http://h/v.mp4?X-Amz-Signature=abc&X-Amz-Credential=c&key=k&api_key=z&n=2")
            == "http://h/v.mp4?X-Amz-Signature=***&X-Amz-Credential=***&key=***&api_key=***&n=2")
        #expect(SourceOptions.redacted("/home/me/clip.mp4") == "/home/me/clip.mp4")
        #expect(SourceOptions.redacted("http://h/a@b.mp4") == "http://h/a@b.mp4")
    }
}
