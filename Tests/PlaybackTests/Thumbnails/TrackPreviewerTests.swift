import Foundation
@testable import Playback
import TestSupport
import Testing
@testable import Web

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

    /// The bytes the test server sent for requests whose path contains `name`.
    static func servedBytes(_ name: String) throws -> Int {
        let log = try String(contentsOfFile: try TestEnvironment.httpLog, encoding: .utf8)
        return log.split(separator: "\n").compactMap { line -> Int? in
            guard line.contains("\"status\": \"sent\""), line.contains(name),
                  let r = line.range(of: "\"bytes\": ") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }.reduce(0, +)
    }

    /// The requests the test server answered for paths that contain `name`.
    static func requests(_ name: String) throws -> Int {
        let log = try String(contentsOfFile: try TestEnvironment.httpLog, encoding: .utf8)
        return log.split(separator: "\n").filter { $0.contains(name) && !$0.contains("\"status\": \"sent\"") }.count
    }

    /// A 60 s clip at a high bit rate on the test server under a name of its own.
    static func servedClip() throws -> (name: String, size: Int) {
        let clip = try Fixtures.make("preview-web-60s.mp4", [
            "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=60", "-c:v", "libx264", "-preset", "ultrafast",
            "-b:v", "4M", "-g", "50", "-pix_fmt", "yuv420p"])
        let name = "preview-\(UInt32.random(in: 0...UInt32.max)).mp4"
        try FileManager.default.copyItem(atPath: clip, toPath: try TestEnvironment.httpRoot + "/" + name)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        return (name, size)
    }

    @Test("A server that ignores Range turns previews off at its first answer, without downloading the file")
    func serverWithoutRanges() throws {
        let (name, size) = try Self.servedClip()
        let p = TrackPreviewer(url: try TestEnvironment.http + "/no-range/" + name, options: SourceOptions(), wake: {})
        p.request(at: 30)
        let end = Date().addingTimeInterval(10)
        while !p.isUnavailable && Date() < end { usleep(5_000) }
        #expect(p.isUnavailable, "previews stay on for a server without ranges")
        for t in [12.0, 49.0] { p.request(at: t) }
        #expect(p.picture(at: 30) == nil && p.picture(at: 12) == nil)
        p.close()
        // Give the server a moment to log what it sent before the connection closed.
        var sent = 0
        let logged = Date().addingTimeInterval(5)
        repeat { usleep(50_000); sent = try Self.servedBytes(name) } while sent == 0 && Date() < logged
        #expect(sent < size / 8, "served \(sent) of \(size) bytes to a preview that could not seek")
    }

    @Test("A web video's previews are kept on disk: opened again, they show with nothing read from the server, and clearing the cache removes them")
    func previewsOnDisk() throws {
        let (name, _) = try Self.servedClip()
        let root = Fixtures.directory + "/preview-cache-\(UInt32.random(in: 0...UInt32.max))"
        let cache = try MediaCache(root: root)
        let url = try TestEnvironment.http + "/" + name
        let first = TrackPreviewer(url: url, options: SourceOptions(), store: PreviewStore(cache: cache, url: url, width: 160), wake: {})
        var colours: [Double: (r: Double, g: Double, b: Double)] = [:]
        for t in [12.0, 31.0, 49.0] {
            first.request(at: t)
            let f = try #require(waitForPicture(first, at: t, timeout: 10), "no preview at \(t) s")
            colours[t] = f.averageColor()
        }
        first.close()
        let stored = try FileManager.default.contentsOfDirectory(atPath: root + "/previews")
        #expect(stored.filter { $0.hasSuffix(".pv") }.count == 3 && stored.contains { $0.hasSuffix(".idx") }, "\(stored)")
        #expect(!stored.contains { $0.contains(name) }, "stored names come from a hash, not the URL: \(stored)")
        let before = try Self.requests(name)
        let again = TrackPreviewer(url: url, options: SourceOptions(), store: PreviewStore(cache: cache, url: url, width: 160), wake: {})
        for t in [12.0, 31.0, 49.0] {
            again.request(at: t)
            let f = try #require(waitForPicture(again, at: t, timeout: 5), "no stored preview at \(t) s")
            let c = f.averageColor(), want = try #require(colours[t])
            #expect(abs(c.r - want.r) < 2 && abs(c.g - want.g) < 2 && abs(c.b - want.b) < 2, "at \(t) s: \(c) vs \(want)")
        }
        again.close()
        #expect(try Self.requests(name) == before, "the second opening asked the server")
        cache.clear(.all)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/previews").isEmpty)
    }

    @Test("The previews directory stays within its budget: the least recently used go first")
    func storeBudget() throws {
        let root = Fixtures.directory + "/preview-budget-\(UInt32.random(in: 0...UInt32.max))"
        let cache = try MediaCache(root: root)
        let p = TrackPreviewer(url: "file:" + (try Fixtures.colourSeconds()), options: SourceOptions(), wake: {})
        p.request(at: 0.5)
        let frame = try #require(waitForPicture(p, at: 0.5))
        p.close()
        // 160 x 90 is 21,636 bytes a file: a 200 KB budget holds 9.
        let store = try #require(PreviewStore(cache: cache, url: "https://example.invalid/v.mp4", width: 160, capBytes: 200_000))
        for i in 0..<100 { store.save(frame, at: Double(i)) }
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/previews")
        var total = 0
        for f in files { total += (try FileManager.default.attributesOfItem(atPath: root + "/previews/" + f)[.size] as? Int) ?? 0 }
        #expect(total <= 200_000 + 32 * 21_700, "\(files.count) files, \(total) bytes")
        #expect(store.picture(at: 99) != nil, "the newest preview is kept")
        #expect(store.picture(at: 0) == nil, "the oldest preview went")
    }

    @Test("A stored preview that is damaged is refused and deleted, never shown")
    func damagedStoredPreview() throws {
        for bytes in [[UInt8](), Array("mvprev01".utf8), Array("mvprev01".utf8) + [UInt8](repeating: 0xFF, count: 36),
                      Array("mvprev01".utf8) + [160, 0, 0, 0, 90, 0, 0, 0] + [UInt8](repeating: 0, count: 100)] {
            #expect(PreviewFile.decode(bytes) == nil, "\(bytes.count) bytes")
        }
        #expect(PreviewFile.decodeIndex(Array("mvkeys01".utf8) + [1, 2, 3]) == nil)
        #expect(PreviewFile.decodeIndex(Array("mvkeys01".utf8) + Array(repeating: 0xFF, count: 8)) == nil, "NaN time")
        let root = Fixtures.directory + "/preview-damaged-\(UInt32.random(in: 0...UInt32.max))"
        let cache = try MediaCache(root: root)
        let store = try #require(PreviewStore(cache: cache, url: "https://example.invalid/v.mp4", width: 160))
        let path = store.stem + "-w160-5000.pv"
        try Data("mvprev01 but then nothing sensible at all, not even the right length".utf8).write(to: URL(fileURLWithPath: path))
        #expect(store.picture(at: 5) == nil)
        #expect(!FileManager.default.fileExists(atPath: path), "the damaged file was deleted")
    }

    @Test("Files with a keyframe an hour, or no index at all, give each preview bounded work: a picture or none, never a stall")
    func hostileFiles() throws {
        for url in try [Fixtures.oneKeyframeHour(), Fixtures.oneKeyframeHourStream(), Fixtures.rawH264()] {
            let p = TrackPreviewer(url: "file:" + url, options: SourceOptions(), wake: {})
            defer { p.close() }
            // Hover across the clip, pausing briefly at each place as a pointer would.
            for t in stride(from: 300.0, through: 3300, by: 600) {
                p.request(at: t)
                usleep(20_000)
            }
            p.request(at: 1800)
            let start = Date()
            // Settled: the last place has its picture, or was given up within the bounds.
            while p.isBusy && Date().timeIntervalSince(start) < 10 { usleep(10_000) }
            #expect(!p.isBusy, "\(url): still working on a preview after \(Date().timeIntervalSince(start)) s")
        }
    }
}
