import Foundation
@testable import Playback
import TestSupport
import Testing
@testable import Web

/// Previews of videos as people's encoders make them by default: long keyframe intervals and
/// reordered (B-) frames, which hold a keyframe back inside the decoder.
@Suite(.serialized) struct DefaultEncodePreviewTests {
    /// A clip encoded with nothing but an encoder's defaults.
    struct Clip: Sendable, CustomStringConvertible {
        let name: String
        let codec: [String]
        var size = "320x180"
        var seconds = 12
        var container = "mp4"
        var description: String { name }

        func make() throws -> String {
            try Fixtures.make("default-\(name.filter { $0.isLetter || $0.isNumber }).\(container)", [
                "-f", "lavfi", "-i", "testsrc2=s=\(size):r=25:d=\(seconds)"] + codec + ["-pix_fmt", "yuv420p"])
        }
    }

    static let clips: [Clip] = [
        Clip(name: "x264", codec: ["-c:v", "libx264"], size: "640x360", seconds: 20),
        Clip(name: "x264 in MPEG-TS", codec: ["-c:v", "libx264"], seconds: 20, container: "ts"),
        Clip(name: "x264 with one keyframe in 30 s", codec: ["-c:v", "libx264", "-g", "900"], seconds: 30),
        Clip(name: "x265", codec: ["-c:v", "libx265", "-x265-params", "log-level=none"]),
        Clip(name: "libvpx-vp9", codec: ["-c:v", "libvpx-vp9"], container: "webm"),
        Clip(name: "SVT-AV1", codec: ["-c:v", "libsvtav1"]),
    ]

    @Test("Every hovered place of a default encode shows the keyframe at or before it, the last ones too",
          arguments: clips)
    func everyPlace(_ c: Clip) throws {
        let path = try c.make()
        let length = Double(c.seconds)
        let p = TrackPreviewer(url: "file:" + path, options: SourceOptions(), wake: {})
        defer { p.close() }
        for t in [0.5, length * 0.4, length * 0.75, length - 0.3] {
            p.request(at: t)
            let end = Date().addingTimeInterval(10)
            var picture: VideoFrame?
            while picture == nil, !p.isUnavailable, Date() < end {
                picture = p.picture(at: t)
                if picture == nil { usleep(2_000) }
            }
            let f = try #require(picture, "\(c.name): no preview at \(t) s")
            #expect(f.width == 160, "\(c.name) at \(t) s: \(f.width) px wide")
            #expect(f.pts <= t + 0.05, "\(c.name) at \(t) s: showed \(f.pts) s, past the place")
        }
    }
}
