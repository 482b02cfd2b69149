import Foundation
import Playback
import Testing
import TestSupport
@testable import Viewer

/// The Viewer's cache API: `CacheManager` and MediaView's preloading.
@Suite(.serialized)
@MainActor
struct CacheManagerTests {
    final class Downloads: MediaViewDelegate {
        var videos: [String] = []
        var audios: [String] = []
        var videoURLs: [URL] = []
        var audioURLs: [URL] = []
        func mediaView(_ mediaView: MediaView, didDownloadVideo video: URL) { videoURLs.append(video) }
        func mediaView(_ mediaView: MediaView, didDownloadAudio audio: URL) { audioURLs.append(audio) }
        func mediaView(_ mediaView: MediaView, didDownloadVideo path: String) {
            MainActor.assertIsolated()
            videos.append(path)
        }
        func mediaView(_ mediaView: MediaView, didDownloadAudio path: String) { audios.append(path) }
    }

    /// Points the shared manager at a fresh directory for one test.
    func freshManager(_ label: String, enabled: Bool = true) throws -> CacheManager {
        let base = ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_TMP"] ?? NSTemporaryDirectory()
        let m = CacheManager.shared
        m.configure(directory: base + "/cm-\(label)-\(UUID().uuidString.prefix(8))", enabled: enabled)
        return m
    }

    @Test("shouldPreloadPlayableMedia downloads when the URL is set, before any queue, with caching off")
    func preloadWhenSet() async throws {
        let m = try freshManager("set", enabled: false)
        defer { m.cacheMediaWhenDownloaded = true }
        let fixture = try Fixtures.solidVideo("blue", width: 160, height: 120, seconds: 1)
        let name = "set-\(UUID().uuidString.prefix(8)).mp4"
        try FileManager.default.copyItem(atPath: fixture, toPath: try TestEnvironment.httpRoot + "/" + name)
        let url = try TestEnvironment.http + "/" + name
        let v = MediaView()
        let d = Downloads()
        v.delegate = d
        v.shouldPreloadPlayableMedia = true
        v.setVideo(url: url)
        #expect(v.isPreloading, "the download starts when the URL is set")
        try await pump(seconds: 20) { !d.videoURLs.isEmpty }
        #expect(d.videos.count == 1)
        #expect(d.videoURLs.map(\.path) == d.videos, "the URL form follows the String form")
        #expect(d.videos.first.map { FileManager.default.contents(atPath: $0) == FileManager.default.contents(atPath: fixture) } == true)
    }

    /// Lets the main queue deliver what download threads posted until `done` or the time limit.
    func pump(seconds: Double, until done: () -> Bool) async throws {
        let end = Date().addingTimeInterval(seconds)
        while !done() && Date() < end {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("preloadVideo downloads into the cache and fires didDownloadVideo on the main actor")
    func preloadVideo() async throws {
        let m = try freshManager("preload")
        let fixture = try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 1)
        let name = "pre-\(UUID().uuidString.prefix(8)).mp4"
        try FileManager.default.copyItem(atPath: fixture, toPath: try TestEnvironment.httpRoot + "/" + name)
        let url = try TestEnvironment.http + "/" + name
        let v = MediaView()
        let d = Downloads()
        v.delegate = d
        v.setVideo(url: url)
        v.preloadVideo()
        #expect(v.isPreloading)
        try await pump(seconds: 20) { !d.videos.isEmpty }
        let path = try #require(d.videos.first)
        #expect(d.videos.count == 1)
        #expect(!v.isPreloading)
        #expect(path.hasPrefix(m.directory + "/video/"))
        #expect(m.cachedPath(for: url) == path)
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: fixture))
    }

    @Test("shouldPreloadPlayableMedia preloads audio when the view is queued")
    func preloadWhenQueued() async throws {
        let m = try freshManager("queued")
        let name = "pre-\(UUID().uuidString.prefix(8)).wav"
        try FileManager.default.copyItem(atPath: try Fixtures.tone(660, seconds: 1),
                                         toPath: try TestEnvironment.httpRoot + "/" + name)
        let url = try TestEnvironment.http + "/" + name
        let v = MediaView()
        let d = Downloads()
        v.delegate = d
        v.shouldPreloadPlayableMedia = true
        v.setAudio(url: url)
        let q = MediaQueue()
        q.presentation.windowed = true
        q.presentation.geometry = (160, 120, 0, 0)
        let first = MediaView()
        first.setImage(url: try Fixtures.solidImage("blue", width: 32, height: 32))
        q.queue(mediaView: first)
        q.queue(mediaView: v)
        try await pump(seconds: 20) { !d.audios.isEmpty }
        #expect(d.audios.first?.hasPrefix(m.directory + "/audio/") == true, "\(d.audios)")
        q.shutdown()
    }

    @Test("clear(directory:) empties what it names")
    func clear() throws {
        let m = try freshManager("clear")
        let cache = try #require(m.diskCache)
        let t = try #require(FileManager.default.createFile(atPath: cache.root + "/video/x.mp4", contents: Data(count: 10)) ? 1 : nil)
        _ = t
        _ = FileManager.default.createFile(atPath: cache.root + "/audio/y.wav", contents: Data(count: 10))
        m.clear(directory: .video)
        #expect(!FileManager.default.fileExists(atPath: cache.root + "/video/x.mp4"))
        #expect(FileManager.default.fileExists(atPath: cache.root + "/audio/y.wav"))
        m.clear(directory: .all)
        #expect(!FileManager.default.fileExists(atPath: cache.root + "/audio/y.wav"))
        #expect(m.cacheMediaWhenDownloaded)
    }
}
