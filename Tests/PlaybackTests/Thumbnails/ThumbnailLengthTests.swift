import Foundation
import Testing
import TestSupport
import ThumbnailCache
@testable import Playback

/// A video's length travels with its thumbnail: read while the picture is made, kept in the
/// cached PNG as the standard's `Thumb::Movie::Length`, and read back from it; stills and
/// sound have none, and a length another program wrote wrong counts as none.
@Suite struct ThumbnailLengthTests {
    init() { FFmpegLog.quiet }

    @Test func aVideoComesWithItsLengthAndAStillWithNone() throws {
        let video = try Fixtures.solidVideo("blue", width: 160, height: 120, seconds: 3)
        let v = try ThumbnailMaker.thumbnail(path: video, size: 128)
        let length = try #require(v.length, "the video's thumbnail came without its length")
        #expect(abs(length - 3) < 0.2, "length \(length)")
        #expect(v.picture.width == 128)
        let still = try ThumbnailMaker.thumbnail(path: try Fixtures.solidImage("red", width: 64, height: 48), size: 128)
        #expect(still.length == nil)
    }

    @Test func theCachedThumbnailKeepsTheLengthAndAWrongOneIsNone() throws {
        let dir = NSTemporaryDirectory() + "thumblength-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = ThumbnailStore(directory: dir, application: "mediaview-test")
        let red = StillDecoder.RGBA(width: 4, height: 2, pixels: Array(repeating: [255, 0, 0, 255], count: 8).flatMap { $0 })
        let uri = "file:///videos/clip.mp4"
        try store.save(red, uri: uri, mtime: 5, size: .normal, length: 75.9)
        let file = store.path(of: uri, size: .normal)
        #expect(PNGText.value("Thumb::Movie::Length", in: try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))) == "75")
        #expect(store.cachedThumbnail(uri, mtime: 5, size: .normal)?.length == 75)
        try store.save(red, uri: uri, mtime: 5, size: .normal)
        #expect(store.cachedThumbnail(uri, mtime: 5, size: .normal)?.length == nil, "a still's thumbnail has a length")
        // What another program may have written: the picture still shows, without a length.
        for bad in ["nan", "-3", "inf", "1:15", ""] {
            let png = try #require(PNGEncoder.encodeRGBA(red.pixels, width: 4, height: 2, text: [
                ("Thumb::URI", uri), ("Thumb::MTime", "5"), ("Thumb::Movie::Length", bad)]))
            try Data(png).write(to: URL(fileURLWithPath: file))
            let c = store.cachedThumbnail(uri, mtime: 5, size: .normal)
            #expect(c?.picture.width == 4, "\"\(bad)\": the picture was lost")
            #expect(c?.length == nil, "\"\(bad)\" read as \(String(describing: c?.length))")
        }
    }
}
