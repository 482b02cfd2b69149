import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// A picture from the web is downloaded by the viewer and decoded in a worker, like a
/// local one: the worker never gets a socket, only the bytes.
@Suite(.serialized) struct WebStillSandboxTests {
    private func serve(_ path: String, as name: String) throws -> (url: String, cleanup: () -> Void) {
        let dst = try TestEnvironment.httpRoot + "/" + name
        try? FileManager.default.removeItem(atPath: dst)
        try FileManager.default.copyItem(atPath: path, toPath: dst)
        return (try TestEnvironment.http + "/" + name, { try? FileManager.default.removeItem(atPath: dst) })
    }

    /// A JPEG and a WebP from the test server: each shown, each counted by the workers.
    @Test(arguments: ["jpg", "webp"]) func aWebStillIsDecodedByTheWorker(ext: String) throws {
        let png = try JPEGStillTests.quadrantPNG(width: 320, height: 240)
        let file = ext == "jpg" ? try JPEGStillTests.quadrantJPEG("yuvj444p")
            : try Fixtures.make("sbx-quad.webp", ["-i", png, "-c:v", "libwebp", "-quality", "80"])
        let served = try serve(file, as: "sbx-web-\(getpid()).\(ext)")
        defer { served.cleanup() }
        let before = DecodeWorkers.shared.picturesDecoded
        let d = PlayerDriver(served.url)
        let info = try d.ready()
        #expect(info.kind == .image && info.width == 320 && info.height == 240)
        let frame = try #require(d.firstFrame())
        #expect(frame.width == 320 && frame.height == 240)
        #expect(DecodeWorkers.shared.picturesDecoded == before + 1, "the web picture was not decoded by a worker")
    }

    /// With `--sandbox=off` the same address is decoded here, as before: no worker is asked.
    @Test func withTheSandboxOffAWebStillStaysInProcess() throws {
        let served = try serve(try JPEGStillTests.quadrantJPEG("yuvj444p"), as: "sbx-web-off-\(getpid()).jpg")
        defer { served.cleanup() }
        let before = DecodeWorkers.shared.picturesDecoded
        let d = PlayerDriver(served.url) { $0.sandbox = .off }
        #expect(try d.ready().kind == .image)
        #expect(d.firstFrame() != nil)
        #expect(DecodeWorkers.shared.picturesDecoded == before)
    }
}
