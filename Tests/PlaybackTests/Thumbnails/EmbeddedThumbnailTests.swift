import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing
@testable import ThumbnailCache

/// Camera photos' own EXIF thumbnails: used when they serve the cell (turned as the photo
/// is), never enlarged into a blurry `large` thumbnail, and a damaged one costs nothing but
/// the photo's own decode. The photo is red, its embedded thumbnail blue with a lime
/// top-left quarter, so each check sees which picture a thumbnail came from.
@Suite struct EmbeddedThumbnailTests {
    init() { FFmpegLog.quiet }

    /// The colour at (x, y) of an RGBA picture.
    static func colour(_ p: StillDecoder.RGBA, _ x: Int, _ y: Int) -> String {
        let i = (y * p.width + x) * 4
        let (r, g, b) = (p.pixels[i], p.pixels[i + 1], p.pixels[i + 2])
        if r > 190 && g < 70 && b < 70 { return "red" }
        if g > 190 && r < 70 && b < 70 { return "lime" }
        if b > 190 && r < 70 && g < 70 { return "blue" }
        return "(\(r),\(g),\(b))"
    }

    @Test("The embedded thumbnail is used for a normal cell, turned as the photo is",
          arguments: [(1, "top-left"), (3, "bottom-right"), (6, "top-right"), (8, "bottom-left")])
    func embeddedAndUpright(orientation: Int, limeCorner: String) throws {
        let p = try ThumbnailMaker.make(path: try Fixtures.cameraJPEG(orientation: orientation), size: 128)
        let (w, h) = orientation >= 5 ? (96, 128) : (128, 96)
        #expect((p.width, p.height) == (w, h), "\(p.width)x\(p.height)")
        let corners = ["top-left": (w / 6, h / 6), "top-right": (w * 5 / 6, h / 6),
                       "bottom-left": (w / 6, h * 5 / 6), "bottom-right": (w * 5 / 6, h * 5 / 6)]
        for (name, (x, y)) in corners {
            #expect(Self.colour(p, x, y) == (name == limeCorner ? "lime" : "blue"), "\(name) with orientation \(orientation)")
        }
    }

    @Test func aLargeCellOrAnotherShapeDecodesThePhotoInstead() throws {
        // 160 px would be enlarged to 256: blurry, so the photo itself is decoded.
        let large = try ThumbnailMaker.make(path: try Fixtures.cameraJPEG(), size: 256)
        #expect((large.width, large.height) == (256, 192))
        #expect(Self.colour(large, 128, 96) == "red")
        // A 3:2 photo with a 4:3 thumbnail (a letterboxed one would show its bars).
        let wide = try ThumbnailMaker.make(path: try Fixtures.cameraJPEG(width: 600, height: 400), size: 128)
        #expect((wide.width, wide.height) == (128, 85))
        #expect(Self.colour(wide, 10, 10) == "red")
    }

    @Test("Damaged EXIF thumbnails fall back to the photo, quietly",
          arguments: [Fixtures.ExifThumbnail.offsetPastTheEnd, .lengthPastTheEnd, .notAJPEG])
    func damagedFallsBack(damage: Fixtures.ExifThumbnail) throws {
        let path = try Fixtures.cameraJPEG(orientation: 6, thumbnail: damage)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.withUnsafeBytes { EmbeddedThumbnail.range(inJPEG: $0) } == nil)
        let p = try ThumbnailMaker.make(path: path, size: 128)
        // The photo, still turned upright by its orientation.
        #expect((p.width, p.height) == (96, 128))
        #expect(Self.colour(p, 10, 10) == "red" && Self.colour(p, 86, 20) == "red")
    }

    @Test func damagedEXIFNeverReadsPastTheBytes() throws {
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixtures.cameraJPEG())))
        let found = try #require(good.withUnsafeBytes { EmbeddedThumbnail.range(inJPEG: $0) })
        #expect(good[found.lowerBound] == 0xFF && good[found.upperBound - 2] == 0xFF && good[found.upperBound - 1] == 0xD9)
        // Every cut through the EXIF block, and every byte of its header and IFDs changed.
        let exifEnd = found.upperBound + 4
        for cut in 0..<exifEnd {
            if let r = Array(good[0..<cut]).withUnsafeBytes({ EmbeddedThumbnail.range(inJPEG: $0) }) {
                #expect(r.upperBound <= cut)
            }
        }
        for i in 2..<(found.lowerBound + 3) {
            for v: UInt8 in [0x00, 0xFF, 0x7F] {
                var b = good
                b[i] = v
                if let r = b.withUnsafeBytes({ EmbeddedThumbnail.range(inJPEG: $0) }) {
                    #expect(r.upperBound <= b.count && b[r.lowerBound] == 0xFF)
                }
                _ = b.withUnsafeBytes { ThumbnailMaker.embedded($0, size: 128) }
            }
        }
    }

    @Test func theWorkerSavesTheEmbeddedPictureAsANormalThumbnailAndSaysNothingOfBadEXIF() throws {
        let dir = NSTemporaryDirectory() + "embedded-thumbs-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = ThumbnailStore(directory: dir + "/cache", application: "mediaview-test")
        let paths = [try Fixtures.cameraJPEG()] + (try [.offsetPastTheEnd, .lengthPastTheEnd, .notAJPEG].map {
            try Fixtures.cameraJPEG(thumbnail: $0)
        })
        let news = ThumbnailNews()
        let worker = ThumbnailWorker(store: store, size: .normal, wake: news.wake)
        defer { worker.close() }
        worker.want(paths)
        let done = news.events(of: worker, count: paths.count)
        #expect(done.count == paths.count)
        #expect(done.allSatisfy { $0.source == .made && $0.reason == nil && $0.cacheProblem == nil })
        for (path, colour) in zip(paths, ["blue", "red", "red", "red"]) {
            var st = stat()
            #expect(stat(path, &st) == 0)
            let uri = ThumbnailStore.uri(forPath: ThumbnailStore.absolutePath(path))
            let saved = try #require(store.cached(uri, mtime: Int(st.st_mtim.tv_sec), size: .normal))
            #expect((saved.width, saved.height) == (128, 96))
            #expect(Self.colour(saved, 100, 70) == colour, "\(path)")
        }
    }
}
