import Foundation
@testable import Playback
import TestSupport
import Testing
@testable import Web

/// Cache entries are checked against the length and checksum recorded when they were
/// stored: a damaged copy is fetched again, or refused offline, never played as if whole.
@Suite(.serialized) struct CacheCheckTests {
    enum Damage: String, CaseIterable { case truncated, altered }

    static func damage(_ path: String, _ how: Damage) throws {
        let h = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? h.close() }
        let size = try h.seekToEnd()
        switch how {
        case .truncated: try h.truncate(atOffset: size / 2)
        case .altered:
            // Same length, one byte in the middle of the media data changed.
            try h.seek(toOffset: size / 2)
            let b = try #require(try h.read(upToCount: 1)).first ?? 0
            try h.seek(toOffset: size / 2)
            try h.write(contentsOf: Data([b ^ 0xFF]))
        }
    }

    /// Plays `url` into a fresh cache once; returns the cache, the options and the entry.
    static func cached(_ fixture: String, label: String) throws -> (url: String, file: String, o: SourceOptions, entry: String) {
        let (url, file) = try CacheStreamTests.serve(fixture)
        var o = SourceOptions()
        o.cache = try CacheStreamTests.cache(label)
        o.networkTimeout = 5
        let first = CacheStreamTests.play(url, source: o)
        #expect(first.finished && first.streamError == nil)
        return (url, file, o, try #require(o.cache?.lookup(url), "not cached"))
    }

    @Test("A damaged entry is dropped and fetched again while the server answers", arguments: Damage.allCases)
    func refetched(how: Damage) throws {
        let fixture = try TestEnvironment.httpRoot + "/03-video.mp4"
        let c = try Self.cached(fixture, label: "refetch-\(how)")
        let name = (c.file as NSString).lastPathComponent
        try Self.damage(c.entry, how)
        let before = try CacheStreamTests.requests(name)
        let again = CacheStreamTests.play(c.url, source: c.o)
        #expect(again.finished && again.streamError == nil && again.frames > 20, "\(again.phase)")
        #expect(try CacheStreamTests.requests(name) > before, "the damaged copy was played instead of fetched")
        let path = try #require(c.o.cache?.lookup(c.url), "not cached again")
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: fixture))
    }

    @Test("Offline, a damaged entry is refused with one line saying so", arguments: Damage.allCases)
    func refusedOffline(how: Damage) throws {
        let fixture = try TestEnvironment.httpRoot + "/03-video.mp4"
        let c = try Self.cached(fixture, label: "offline-\(how)")
        try FileManager.default.removeItem(atPath: c.file)
        try Self.damage(c.entry, how)
        let r = CacheStreamTests.play(c.url, source: c.o)
        guard case .failed(let e) = r.phase else {
            Issue.record("a damaged copy was played: \(r.phase), \(r.frames) frames")
            return
        }
        #expect(e.message.contains("damaged") && e.message.contains("404"), "\(e.message)")
        #expect(!e.message.contains("\n"))
        #expect(r.frames == 0)
    }
}
