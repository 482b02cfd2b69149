import Foundation
import MediaCore
@testable import Playback
import TestSupport
import Testing
@testable import ThumbnailCache

/// The freedesktop thumbnail cache's rules, checked against other readers: Python's idea of
/// a file URI and its MD5, and the PNG's chunks read here by hand.
@Suite struct ThumbnailStoreTests {
    init() { FFmpegLog.quiet }

    @Test func theURIAndItsMD5AreWhatOtherProgramsCompute() throws {
        for path in ["/tmp/a b/Ünïcode ☃.jpg", "/x/plain-name_1.png", "/odd/100%#?.png"] {
            let python = "import sys,hashlib,pathlib; u=pathlib.PurePosixPath(sys.argv[1]).as_uri(); print(u); print(hashlib.md5(u.encode()).hexdigest())"
            let r = try Run.process("python3", ["-c", python, path], timeout: 10)
            let out = r.stdout.split(separator: "\n").map(String.init)
            #expect(ThumbnailStore.uri(forPath: path) == out.first)
            #expect(ThumbnailStore.md5(ThumbnailStore.uri(forPath: path)) == out.last)
        }
        #expect(ThumbnailStore.absolutePath("/a/./b/../c.png") == "/a/c.png")
        #expect(ThumbnailStore.absolutePath("c.png") == FileManager.default.currentDirectoryPath + "/c.png")
    }

    @Test func aSavedThumbnailIsAPNGWithItsURIAndTimeAndReadsBackOnlyWhileTheyHold() throws {
        let dir = NSTemporaryDirectory() + "thumbstore-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = ThumbnailStore(directory: dir, application: "mediaview-test")
        let red = StillDecoder.RGBA(width: 4, height: 2, pixels: Array(repeating: [255, 0, 0, 255], count: 8).flatMap { $0 })
        let uri = "file:///photos/a%20b.jpg"
        try store.save(red, uri: uri, mtime: 1234, size: .normal)
        let file = store.path(of: uri, size: .normal)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(PNGText.value("Thumb::URI", in: bytes) == uri)
        #expect(PNGText.value("Thumb::MTime", in: bytes) == "1234")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: dir + "/normal")
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/normal").count == 1)
        #expect(store.cached(uri, mtime: 1234, size: .normal)?.width == 4)
        #expect(store.cached(uri, mtime: 1235, size: .normal) == nil, "a thumbnail of an older file counted")
        #expect(store.cached(uri + "x", mtime: 1234, size: .normal) == nil)
        #expect(!store.hasFailure(uri, mtime: 1234))
        try store.recordFailure(uri, mtime: 1234)
        #expect(FileManager.default.fileExists(atPath: dir + "/fail/mediaview-test/" + ThumbnailStore.md5(uri) + ".png"))
        #expect(store.hasFailure(uri, mtime: 1234))
        #expect(!store.hasFailure(uri, mtime: 99), "a failure outlived a change of the file")

        // The large size has its own folder.
        try store.save(red, uri: uri, mtime: 1234, size: .large)
        #expect(store.path(of: uri, size: .large) == dir + "/large/" + ThumbnailStore.md5(uri) + ".png")
        #expect(store.cached(uri, mtime: 1234, size: .large)?.height == 2)

        // Damaged files under the right name count as none: garbage, and a PNG whose text is
        // right but whose picture was cut off.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: file))
        #expect(store.cached(uri, mtime: 1234, size: .normal) == nil)
        let whole = try #require(PNGEncoder.encodeRGBA(red.pixels, width: 4, height: 2,
                                                       text: [("Thumb::URI", uri), ("Thumb::MTime", "1234")]))
        try Data(whole.prefix(whole.count - 20)).write(to: URL(fileURLWithPath: file))
        #expect(store.cached(uri, mtime: 1234, size: .normal) == nil)
    }

    @Test func damagedPNGTextIsReadAsFarAsItGoesAndNoFurther() throws {
        let png = try #require(PNGEncoder.encodeRGBA([1, 2, 3, 255], width: 1, height: 1,
                                                     text: [("Thumb::URI", "file:///a"), ("Thumb::MTime", "7")]))
        #expect(PNGText.read(png)?.count == 2)
        #expect(PNGText.read(Array(png.prefix(40))).map(\.count) == 0)
        #expect(PNGText.read([1, 2, 3]) == nil)
        #expect(PNGText.read(Array("not a png at all".utf8)) == nil)
        var lying = png
        lying[33] = 0xFF  // the first text chunk's length now runs past the end
        #expect(PNGText.read(lying)?.isEmpty == true)
        // Text a PNG cannot hold as tEXt is refused rather than written wrong.
        #expect(PNGEncoder.encodeRGBA([1, 2, 3, 255], width: 1, height: 1, text: [("Thumb::URI", "☃")]) == nil)
    }
}
