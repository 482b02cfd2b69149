import Foundation
import Testing
import TestSupport

/// Media can only show itself: a web playlist cannot reach local files, and a local one
/// cannot reach the web.
@Suite(.serialized)
struct ProtocolWhitelistTests {
    /// A playlist whose one segment is `segment`.
    func playlist(_ segment: String) -> String {
        """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:2
        #EXTINF:2.0,
        \(segment)
        #EXT-X-ENDLIST

        """
    }

    @Test("A playlist from the web that points at a local file is refused")
    func webToLocal() throws {
        let root = try TestEnvironment.httpRoot
        let local = try Fixtures.solidVideo("red", width: 64, height: 48, seconds: 1, codec: "libx264", ext: "ts")
        try playlist("file://" + local).write(toFile: root + "/evil.m3u8", atomically: true, encoding: .utf8)
        let url = try TestEnvironment.http + "/evil.m3u8"
        let r = try Run.process(Run.mediaview, ["--autoexit", "--no-audio", "--events", "-", url], timeout: 30,
                                environment: Run.environment())
        #expect(r.status == 1, "\(r.stderr)")
        #expect(!r.stdout.contains("\"loaded\""), "the local file must not have been opened")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test("A local playlist that points at the web is refused")
    func localToWeb() throws {
        let path = Fixtures.directory + "/to-web-\(getpid()).m3u8"
        try playlist(try TestEnvironment.http + "/03-video.mp4").write(toFile: path, atomically: true, encoding: .utf8)
        let log = try TestEnvironment.require("MEDIAVIEW_TEST_HTTP_LOG")
        let before = (try? String(contentsOfFile: log, encoding: .utf8))?.count ?? 0
        let r = try Run.process(Run.mediaview, ["--autoexit", "--no-audio", path], timeout: 30, environment: Run.environment())
        #expect(r.status == 1, "\(r.stderr)")
        let after = (try? String(contentsOfFile: log, encoding: .utf8))?.count ?? 0
        #expect(after == before, "no request reached the server")
    }
}
