import Foundation
@testable import MediaCore
@testable import Playback
import Synchronization
import TestSupport
import Testing
@testable import Web

/// Web media through the Player against the real test server: the four kinds play,
/// streaming fills the cache with no second download, the memory cache answers without a
/// request, preloading, TLS.
@Suite(.serialized) struct CacheStreamTests {
    /// Copies a fixture into the served directory under a unique name; returns its URL path.
    static func serve(_ fixture: String, as name: String? = nil) throws -> (url: String, file: String) {
        let root = try TestEnvironment.httpRoot
        let ext = (fixture as NSString).pathExtension
        let n = name ?? "cs-\(UUID().uuidString.prefix(8)).\(ext)"
        try? FileManager.default.removeItem(atPath: root + "/" + n)
        try FileManager.default.copyItem(atPath: fixture, toPath: root + "/" + n)
        return (try TestEnvironment.http + "/" + n, root + "/" + n)
    }

    /// Requests the server logged whose path contains `fragment`.
    static func requests(_ fragment: String) throws -> Int {
        let log = try TestEnvironment.require("MEDIAVIEW_TEST_HTTP_LOG")
        let text = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").filter { $0.contains(fragment) }.count
    }

    struct Played {
        var phase: Player.Phase
        var frames = 0
        var finished = false
        var streamError: AVError?
    }

    /// Plays `url` as fast as it decodes, without sound, until the end or `timeout`.
    static func play(_ url: String, source: SourceOptions = SourceOptions(), timeout: Double = 20) -> Played {
        var o = PlayerOptions()
        o.audio = false
        o.untimed = true
        o.source = source
        let p = Player(url: url, options: o, wake: {})
        defer { p.close() }
        let end = Date().addingTimeInterval(timeout)
        var r = Played(phase: .opening)
        while Date() < end {
            r.phase = p.phase
            if case .failed = r.phase { return r }
            if case .ready = r.phase {
                switch p.nextFrame() {
                case .show: r.frames += 1
                case .wait(let d): usleep(UInt32(min(d, 0.01) * 1e6))
                case .idle: usleep(2_000)
                case .finished:
                    r.finished = true
                    r.streamError = p.streamError
                    return r
                }
            } else {
                usleep(2_000)
            }
        }
        r.streamError = p.streamError
        return r
    }

    static func cache(_ label: String) throws -> MediaCache {
        try MediaCache(root: try CacheStoreTests.scratch(label))
    }

    @Test("A PNG, a GIF, an mp4 with sound and a wav play over http")
    func fourKinds() throws {
        let cases: [(String, MediaInfo.Kind)] = [
            (try Fixtures.solidImage("red", width: 64, height: 48), .image),
            (try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 10), .animated),
            (try Fixtures.solidVideo("blue", width: 160, height: 120, seconds: 1, tone: 440), .video),
            (try Fixtures.tone(440, seconds: 1), .audio),
        ]
        for (fixture, kind) in cases {
            let (url, _) = try Self.serve(fixture)
            let r = Self.play(url)
            guard case .ready(let info) = r.phase else {
                Issue.record("\(url) did not open: \(r.phase)")
                continue
            }
            #expect(info.kind == kind, "\(url)")
            #expect(r.finished && r.streamError == nil, "\(url): \(String(describing: r.streamError))")
            if kind != .audio { #expect(r.frames > 0, "\(url) showed no picture") }
        }
    }

    @Test("Streaming stores a byte-identical copy once complete, and replays it offline")
    func streamThenOffline() throws {
        let fixture = try Fixtures.solidVideo("green", width: 160, height: 120, seconds: 2, tone: 330)
        let (url, file) = try Self.serve(fixture)
        let cache = try Self.cache("stream")
        let told = Mutex<[String]>([])
        var o = SourceOptions()
        o.cache = cache
        o.cacheDirectory = .video
        o.onCached = { path in told.withLock { $0.append(path) } }
        let first = Self.play(url, source: o)
        #expect(first.finished && first.streamError == nil)
        let path = try #require(cache.lookup(url), "nothing was cached")
        #expect(path.hasPrefix(cache.root + "/video/") && path.hasSuffix(".mp4"))
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: fixture))
        #expect(told.withLock { $0 } == [path])
        #expect((try? FileManager.default.contentsOfDirectory(atPath: cache.root + "/temp")) == [])

        // The network copy is gone: only the cache can play it now, with no request.
        try FileManager.default.removeItem(atPath: file)
        let name = (file as NSString).lastPathComponent
        let before = try Self.requests(name)
        let second = Self.play(url, source: o)
        #expect(second.finished && second.frames > 0, "offline replay failed: \(second.phase)")
        #expect(try Self.requests(name) == before, "the replay asked the server")
    }

    @Test("A player stopped mid-download leaves nothing in the cache")
    func stoppedEarly() throws {
        // The demo video (about 240 KB) takes seconds at this rate.
        let slow = try TestEnvironment.http + "/trickle/40000/03-video.mp4"
        let cache = try Self.cache("early")
        var o = PlayerOptions()
        o.audio = false
        o.source.cache = cache
        let p = Player(url: slow, options: o, wake: {})
        usleep(600_000)
        let temps = try FileManager.default.contentsOfDirectory(atPath: cache.root + "/temp")
        #expect(temps.count == 1, "a download in progress writes one temporary: \(temps)")
        p.close()
        #expect(cache.lookup(slow) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.root + "/temp") == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.root + "/video") == [])
    }

    @Test("The memory cache serves a second open without a request")
    func memorySecondOpen() throws {
        let (url, file) = try Self.serve(try Fixtures.solidImage("blue", width: 64, height: 48))
        let name = (file as NSString).lastPathComponent
        var o = SourceOptions()
        o.memoryCache = MemoryCache(budgetBytes: 1 << 20)
        let first = Self.play(url, source: o)
        #expect(first.frames > 0)
        #expect(o.memoryCache?.data(for: url) == FileManager.default.contents(atPath: file))
        let asked = try Self.requests(name)
        #expect(asked >= 1)
        let second = Self.play(url, source: o)
        #expect(second.frames > 0, "second open failed: \(second.phase)")
        #expect(try Self.requests(name) == asked, "the second open went to the network")
    }

    @Test("Preloading downloads the whole file into the cache")
    func preload() throws {
        let fixture = try Fixtures.solidVideo("purple", width: 160, height: 120, seconds: 1)
        let (url, _) = try Self.serve(fixture)
        var o = SourceOptions()
        o.cache = try Self.cache("preload")
        o.cacheDirectory = .video
        let outcome = Mutex<Downloader.Outcome?>(nil)
        let d = Downloader(url: url, options: o) { r in outcome.withLock { $0 = r } }
        #expect(d.wait(timeout: 20))
        let path = try #require(try outcome.withLock { $0 }?.get())
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: fixture))
    }

    @Test("HTTPS plays with the test CA trusted and is refused without it")
    func https() throws {
        let base = try TestEnvironment.require("MEDIAVIEW_TEST_HTTPS")
        let ca = try TestEnvironment.require("MEDIAVIEW_TEST_CA")
        let (url, _) = try Self.serve(try Fixtures.solidImage("red", width: 64, height: 48))
        let secure = url.replacingOccurrences(of: try TestEnvironment.http, with: base)
        var trusted = SourceOptions()
        trusted.caFile = ca
        #expect(Self.play(secure, source: trusted).frames > 0)
        var untrusted = SourceOptions()
        untrusted.caFile = "/etc/ssl/certs/ca-certificates.crt"
        let r = Self.play(secure, source: untrusted)
        guard case .failed(let e) = r.phase else { Issue.record("an untrusted certificate was accepted"); return }
        #expect(e.message.contains("certificate"), "\(e.message)")
    }
}
