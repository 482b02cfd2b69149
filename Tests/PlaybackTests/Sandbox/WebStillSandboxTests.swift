import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing
@testable import Web

/// A picture from the web is downloaded by the viewer and decoded in a worker, like a
/// local one: the worker never gets a socket, only the bytes.
@Suite(.serialized) struct WebStillSandboxTests {
    /// `path` on the test server as `name`, and how to take it off again.
    static func serve(_ path: String, as name: String) throws -> (url: String, cleanup: () -> Void) {
        let dst = try TestEnvironment.httpRoot + "/" + name
        try? FileManager.default.removeItem(atPath: dst)
        try FileManager.default.copyItem(atPath: path, toPath: dst)
        return (try TestEnvironment.http + "/" + name, { try? FileManager.default.removeItem(atPath: dst) })
    }

    /// A 320x240 picture of four coloured quadrants as a JPEG ("jpg") or a WebP.
    static func quadrant(_ ext: String) throws -> String {
        let png = try JPEGStillTests.quadrantPNG(width: 320, height: 240)
        return ext == "jpg" ? try JPEGStillTests.quadrantJPEG("yuvj444p")
            : try Fixtures.make("sbx-quad.webp", ["-i", png, "-c:v", "libwebp", "-quality", "80"])
    }

    /// A JPEG and a WebP from the test server: each shown, each counted by the workers.
    @Test(arguments: ["jpg", "webp"]) func aWebStillIsDecodedByTheWorker(ext: String) throws {
        let file = try Self.quadrant(ext)
        let served = try Self.serve(file, as: "sbx-web-\(getpid()).\(ext)")
        defer { served.cleanup() }
        let before = DecodeWorkers.shared.picturesDecoded
        let d = PlayerDriver(served.url)
        let info = try d.ready()
        #expect(info.kind == .image && info.width == 320 && info.height == 240)
        let frame = try #require(d.firstFrame())
        #expect(frame.width == 320 && frame.height == 240)
        #expect(DecodeWorkers.shared.picturesDecoded == before + 1, "the web picture was not decoded by a worker")
    }

    /// A GIF from the test server, at an address that says so and at one that does not:
    /// fetched whole by the viewer and played by a worker, its colours in turn; with the
    /// sandbox off, FFmpeg reads it here as it arrives.
    @Test func aWebGIFIsPlayedByAWorker() throws {
        let gif = try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 20)
        let named = try Self.serve(gif, as: "sbx-web-\(getpid()).gif")
        let unnamed = try Self.serve(gif, as: "sbx-web-gif-\(getpid())")
        defer { named.cleanup(); unnamed.cleanup() }
        for (url, sandbox) in [(named.url, SandboxMode.automatic), (unnamed.url + "?id=3", .automatic), (named.url, .off)] {
            let before = DecodeWorkers.shared.animationsPlayed
            let d = PlayerDriver(url) { $0.sandbox = sandbox }
            let info = try d.ready()
            #expect(info.kind == .animated && info.width == 64, "\(url): \(info)")
            let first = try #require(d.firstFrame(), "\(url): no frame")
            #expect(first.averageColor().r > 200, "\(url): the first frame is not red")
            let played = DecodeWorkers.shared.animationsPlayed - before
            #expect(played == (sandbox == .off ? 0 : 1), "\(url) with the sandbox \(sandbox): \(played) played by a worker")
        }
    }

    /// With `--sandbox=off` the same address is decoded here, as before: no worker is asked.
    @Test func withTheSandboxOffAWebStillStaysInProcess() throws {
        let served = try Self.serve(try JPEGStillTests.quadrantJPEG("yuvj444p"), as: "sbx-web-off-\(getpid()).jpg")
        defer { served.cleanup() }
        let before = DecodeWorkers.shared.picturesDecoded
        let d = PlayerDriver(served.url) { $0.sandbox = .off }
        #expect(try d.ready().kind == .image)
        #expect(d.firstFrame() != nil)
        #expect(DecodeWorkers.shared.picturesDecoded == before)
    }
}

/// Web addresses that do not say what they are: the first bytes do.
@Suite(.serialized) struct UnnamedWebStillTests {
    private func serve(_ path: String, as name: String) throws -> (url: String, cleanup: () -> Void) {
        try WebStillSandboxTests.serve(path, as: name)
    }

    /// A JPEG and a WebP at addresses without an extension, as image hosts and CDNs serve
    /// them: decoded by a worker, not by FFmpeg here.
    @Test(arguments: ["jpg", "webp"]) func aStillAtAnAddressWithoutExtensionIsDecodedByTheWorker(ext: String) throws {
        let file = try WebStillSandboxTests.quadrant(ext)
        let served = try serve(file, as: "sbx-unnamed-\(ext)-\(getpid())")
        defer { served.cleanup() }
        for cached in [false, true] {
            let root = Fixtures.directory + "/unnamed-cache-\(UInt32.random(in: 0...UInt32.max))"
            let before = DecodeWorkers.shared.picturesDecoded
            let d = PlayerDriver(served.url + "?id=7") { if cached { $0.source.cache = try? MediaCache(root: root) } }
            let info = try d.ready()
            #expect(info.kind == .image && info.width == 320 && info.height == 240)
            let frame = try #require(d.firstFrame())
            #expect(frame.width == 320 && frame.height == 240)
            #expect(DecodeWorkers.shared.picturesDecoded == before + 1, "the unnamed web picture was not decoded by a worker")
        }
    }

    /// A video at such an address plays from its start, read once from the server, and no
    /// worker is asked; with the sandbox off a still there is decoded here, as before.
    @Test func aVideoThereStillPlaysAndTheSandboxOffKeepsAStillHere() throws {
        let clip = try serve(try Fixtures.colourSeconds(), as: "sbx-unnamed-clip-\(getpid())")
        defer { clip.cleanup() }
        let root = Fixtures.directory + "/unnamed-video-cache-\(UInt32.random(in: 0...UInt32.max))"
        let before = DecodeWorkers.shared.picturesDecoded
        let requestsBefore = try TrackPreviewerTests.requests(clip.url.split(separator: "/").last.map(String.init) ?? "")
        let d = PlayerDriver(clip.url) { $0.source.cache = try? MediaCache(root: root) }
        #expect(try d.ready().kind == .video)
        let played = d.play(limit: 3) { $0.count >= 10 }
        #expect(played.frames.count >= 10 && played.frames.first.map { $0.pts < 0.1 } == true, "\(played.frames.prefix(3))")
        let requests = try TrackPreviewerTests.requests(clip.url.split(separator: "/").last.map(String.init) ?? "")
        #expect(requests - requestsBefore == 1, "the video was asked for \(requests - requestsBefore) times")
        #expect(DecodeWorkers.shared.picturesDecoded == before)

        let still = try serve(try JPEGStillTests.quadrantJPEG("yuvj444p"), as: "sbx-unnamed-off-\(getpid())")
        defer { still.cleanup() }
        let off = PlayerDriver(still.url) { $0.sandbox = .off }
        #expect(try off.ready().kind == .image)
        #expect(off.firstFrame() != nil)
        #expect(DecodeWorkers.shared.picturesDecoded == before)
    }
}
