import Foundation
import Testing
import TestSupport
@testable import Playback

/// Track previews: the picture at a hovered time, from keyframes, on a thread of its own.
@Suite(.serialized) struct TrackPreviewerTests {
    func waitForPicture(_ p: TrackPreviewer, at t: Double, timeout: Double = 5) -> VideoFrame? {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if let f = p.picture(at: t) { return f }
            usleep(2_000)
        }
        return nil
    }

    @Test("Three hovered times show the keyframe of their second, 160 px wide, and come back from the cache")
    func threePositions() throws {
        let p = TrackPreviewer(url: "file:" + (try Fixtures.colourSeconds()), options: SourceOptions(), wake: {})
        defer { p.close() }
        for (t, index) in [(0.5, 0), (2.5, 2), (4.6, 4)] {
            let start = Date()
            p.request(at: t)
            let f = try #require(waitForPicture(p, at: t), "no preview at \(t) s")
            let ms = Date().timeIntervalSince(start) * 1000
            #expect(f.width == 160 && f.height == 90, "\(f.width)x\(f.height)")
            let c = f.averageColor(), want = Fixtures.secondColours[index].rgb
            let (r, g, b) = (Double(want >> 16), Double((want >> 8) & 0xFF), Double(want & 0xFF))
            #expect(abs(c.r - r) < 40 && abs(c.g - g) < 40 && abs(c.b - b) < 40,
                    "at \(t) s: \(c), want \(Fixtures.secondColours[index].name) (\(Int(ms)) ms)")
        }
        // A time in a second already shown is answered without decoding again.
        #expect(p.picture(at: 2.9) != nil)
    }

    @Test("Audio, a broken file and a missing one give no previews, and nothing stalls")
    func nothingToPreview() throws {
        for url in ["file:" + (try Fixtures.tone(440, seconds: 1)), "file:" + (try Fixtures.bytes("broken-preview.mp4", Data("not a video at all".utf8))),
                    "file:/nonexistent/clip.mp4"] {
            let p = TrackPreviewer(url: url, options: SourceOptions(), wake: {})
            p.request(at: 0.5)
            let end = Date().addingTimeInterval(5)
            while !p.isUnavailable && Date() < end { usleep(2_000) }
            #expect(p.isUnavailable, "\(url)")
            #expect(p.picture(at: 0.5) == nil, "\(url)")
            p.close()
        }
    }

    @Test("Three previews of a web video read only the ranges they need: under a quarter of the file")
    func webRanges() throws {
        // 60 s at a high bit rate, so the file is much larger than what sits in socket buffers.
        let clip = try Fixtures.make("preview-web-60s.mp4", [
            "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=60", "-c:v", "libx264", "-preset", "ultrafast",
            "-b:v", "4M", "-g", "50", "-pix_fmt", "yuv420p"])
        let name = "preview-\(UInt32.random(in: 0...UInt32.max)).mp4"
        try FileManager.default.copyItem(atPath: clip, toPath: try TestEnvironment.httpRoot + "/" + name)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        let p = TrackPreviewer(url: try TestEnvironment.http + "/" + name, options: SourceOptions(), wake: {})
        for t in [12.0, 31.0, 49.0] {
            p.request(at: t)
            #expect(waitForPicture(p, at: t, timeout: 10) != nil, "no preview at \(t) s")
        }
        p.close()
        let log = try String(contentsOfFile: try TestEnvironment.httpLog, encoding: .utf8)
        let sent = log.split(separator: "\n").compactMap { line -> Int? in
            guard line.contains("\"status\": \"sent\""), line.contains(name),
                  let r = line.range(of: "\"bytes\": ") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }.reduce(0, +)
        #expect(sent > 0 && sent < size / 4, "served \(sent) of \(size) bytes for three previews")
    }
}
