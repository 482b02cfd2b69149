import CFFmpeg
import Foundation
@testable import Playback
import TestSupport
import Testing
@testable import Web

/// Web answers that cannot seek or do not say their length: chunked, HTTP/1.0 ended by the
/// close, no Range support, and a chunked answer cut off. Each plays what it has; only a
/// transfer that provably ended enters the cache, and a cut one is reported.
@Suite(.serialized) struct WebFramingTests {
    /// The demo video (moov at the end, as ffmpeg writes by default, so the demuxer jumps
    /// forward to the index and back to the media) under a fresh name.
    static func video() throws -> (path: String, name: String, fixture: String) {
        let fixture = try TestEnvironment.httpRoot + "/03-video.mp4"
        let (url, file) = try CacheStreamTests.serve(fixture)
        let name = (file as NSString).lastPathComponent
        #expect(url.hasSuffix(name))
        return ("/" + name, name, fixture)
    }

    static func temps(_ cache: MediaCache) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: cache.root + "/temp")) ?? []
    }

    static func options(_ cache: MediaCache) -> SourceOptions {
        var o = SourceOptions()
        o.cache = cache
        o.cacheDirectory = .video
        o.networkTimeout = 5
        return o
    }

    @Test("A chunked answer cut before its last chunk is reported and never cached")
    func cutChunked() throws {
        let v = try Self.video()
        let url = try TestEnvironment.http + "/cut-chunked/120000" + v.path
        let cache = try CacheStreamTests.cache("cutchunked")
        let r = CacheStreamTests.play(url, source: Self.options(cache))
        let message: String
        if case .failed(let e) = r.phase { message = e.message } else { message = r.streamError?.message ?? "" }
        #expect(message.contains("cut off"), "not reported as cut: phase \(r.phase), error \(message)")
        #expect(!message.contains("\n"))
        #expect(cache.lookup(url) == nil, "a cut download was cached")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.root + "/video") == [])
        #expect(Self.temps(cache) == [])
    }

    @Test("Complete answers that cannot seek play to the end; only a provable end is cached",
          arguments: [("chunked", true), ("no-range", true), ("http10", false), ("no-length", false)])
    func playsToTheEnd(mode: String, cached: Bool) throws {
        let v = try Self.video()
        let url = try TestEnvironment.http + "/" + mode + v.path
        let cache = try CacheStreamTests.cache(mode)
        let r = CacheStreamTests.play(url, source: Self.options(cache))
        guard case .ready = r.phase else { Issue.record("\(mode): did not open: \(r.phase)"); return }
        #expect(r.finished && r.streamError == nil, "\(mode): \(String(describing: r.streamError))")
        #expect(r.frames > 20, "\(mode): only \(r.frames) frames")
        if cached {
            let path = try #require(cache.lookup(url), "\(mode): a complete transfer was not cached")
            #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: v.fixture))
        } else {
            #expect(cache.lookup(url) == nil, "\(mode): an answer with no length was cached")
        }
        #expect(Self.temps(cache) == [])
    }

    @Test("Seeking back in a chunked answer works within what has arrived")
    func seekBackInChunked() throws {
        let v = try Self.video()
        let url = try TestEnvironment.http + "/chunked" + v.path
        var o = PlayerOptions()
        o.audio = false
        o.untimed = true
        o.source = Self.options(try CacheStreamTests.cache("seekchunked"))
        let p = Player(url: url, options: o, wake: {})
        defer { p.close() }
        var shown: [Double] = []
        var seeked = false
        let end = Date().addingTimeInterval(20)
        loop: while Date() < end {
            if case .failed(let e) = p.phase { Issue.record("failed: \(e.message)"); return }
            guard case .ready = p.phase else { usleep(2_000); continue }
            switch p.nextFrame() {
            case .show(let f):
                shown.append(f.pts)
                if !seeked && f.pts >= 1.5 {
                    seeked = true
                    p.seek(to: 0.2)
                    shown.removeAll()
                }
            case .wait(let d): usleep(UInt32(min(d, 0.01) * 1e6))
            case .idle: usleep(2_000)
            case .finished: break loop
            }
        }
        #expect(seeked, "never got to 1.5 s")
        #expect(p.streamError == nil, "\(String(describing: p.streamError))")
        #expect((shown.first ?? 99) < 1.0, "after seeking back the first frame is at \(shown.first ?? -1)")
    }
}

extension WebFramingTests {
    /// Reads `url` through `CachingIO` from start to end, as a demuxer reading straight on would.
    static func readAll(_ url: String, options: SourceOptions) throws -> (bytes: [UInt8], end: Int32, io: CachingIO) {
        let io = try CachingIO.open(url: url, options: options, sinks: CachingIO.Sinks(cache: options.cache),
                                    interrupt: AVIOInterruptCB())
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 7000)
        while true {
            let n = buffer.withUnsafeMutableBufferPointer { io.read(into: $0.baseAddress!, size: $0.count) }
            if n <= 0 { return (out, n, io) }
            out += buffer[..<Int(n)]
        }
    }

    @Test("Every framing delivers the file's exact bytes", arguments: ["", "/chunked", "/no-range", "/http10", "/no-length"])
    func exactBytes(mode: String) throws {
        let v = try Self.video()
        let url = try TestEnvironment.http + mode + v.path
        let r = try Self.readAll(url, options: SourceOptions())
        defer { r.io.close() }
        #expect(r.end == cff_averror_eof, "\(mode): ended with \(r.end): \(String(describing: r.io.failure))")
        let want = [UInt8](FileManager.default.contents(atPath: v.fixture) ?? Data())
        #expect(r.bytes.count == want.count && r.bytes == want, "\(mode): got \(r.bytes.count) of \(want.count) bytes")
    }
}
