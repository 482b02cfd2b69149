import Foundation
import Testing
import TestSupport
@testable import Viewer

/// Folders made on disk, listed as the queue would get them: natural order, what is left
/// out and counted, subfolders with a symlink loop, and every sort order.
@Suite struct FolderListingTests {
    /// A private folder with the given files (relative paths, folders made as needed).
    static func folder(_ files: [String: Data]) throws -> String {
        let base = ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_TMP"] ?? NSTemporaryDirectory()
        let dir = base + "/listing-\(UUID().uuidString.prefix(8))"
        for (name, data) in files {
            let path = dir + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
        }
        return dir
    }

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 16))

    static func names(_ result: FolderListing.Result, in dir: String) -> [String] {
        result.files.map { String($0.dropFirst(dir.count + 1)) }
    }

    @Test func naturalOrderSkipsHiddenAndNonMediaAndCountsThem() throws {
        let dir = try Self.folder([
            "img10.png": Self.png, "img2.png": Self.png, "IMG1.jpg": Self.png, "img2b.png": Self.png,
            "img02.png": Self.png, "weird name ü ☃.png": Self.png, ".hidden.png": Self.png,
            "notes.txt": Data("hello".utf8), "camera-card-file": Self.png, "unknown.dat": Data("text".utf8),
            "sub/inner.png": Self.png,
        ])
        let r = FolderListing().list(folder: dir)
        #expect(Self.names(r, in: dir) == ["camera-card-file", "IMG1.jpg", "img02.png", "img2.png", "img2b.png",
                                           "img10.png", "weird name ü ☃.png"])
        #expect(r.skippedHidden == 1)
        // notes.txt, unknown.dat (text inside), and the subfolder without -r.
        #expect(r.skippedOther == 3)
        #expect(r.problems.isEmpty)
    }

    /// The modern still formats join a folder's queue by extension, and AVIF, HEIC and
    /// JPEG XL files without one by their first bytes.
    @Test func modernStillsAreMedia() throws {
        let avif = Data([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [UInt8](repeating: 0, count: 12))
        let heic = Data([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 12))
        let jxl = Data([0xFF, 0x0A] + [UInt8](repeating: 0, count: 14))
        let jxlBox = Data([0, 0, 0, 0x0C] + Array("JXL ".utf8) + [0x0D, 0x0A, 0x87, 0x0A] + [UInt8](repeating: 0, count: 8))
        let dir = try Self.folder([
            "a.avif": avif, "b.heic": heic, "c.heif": heic, "d.jxl": jxl, "e.svg": Data("<svg/>".utf8),
            "f.svgz": Data([0x1F, 0x8B, 0, 0]), "g-avif": avif, "h-heic": heic, "i-jxl": jxl, "j-jxl": jxlBox,
        ])
        let r = FolderListing().list(folder: dir)
        #expect(Self.names(r, in: dir) == ["a.avif", "b.heic", "c.heif", "d.jxl", "e.svg", "f.svgz", "g-avif",
                                           "h-heic", "i-jxl", "j-jxl"])
        #expect(r.skippedOther == 0)
    }

    @Test func recursiveVisitsASymlinkLoopOnce() throws {
        let dir = try Self.folder(["a/x.png": Self.png, "a b/y.png": Self.png, "top.png": Self.png,
                                   "a/deeper/z.png": Self.png])
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/deeper/back", withDestinationPath: "../..")
        try FileManager.default.createSymbolicLink(atPath: dir + "/again", withDestinationPath: dir + "/a")
        let r = FolderListing(recursive: true).list(folder: dir)
        // Each real folder once: the loop back to the top and the second way into "a" add nothing.
        #expect(Self.names(r, in: dir) == ["a/deeper/z.png", "a/x.png", "a b/y.png", "top.png"])
        #expect(r.problems.isEmpty)
    }

    /// With `-r`, a link to `/` (or anywhere outside the folder) is not followed: the
    /// listing is the folder's own files, not the whole file system's.
    @Test func recursiveDoesNotFollowALinkOutOfTheFolder() throws {
        let dir = try Self.folder(["a/x.png": Self.png, "top.png": Self.png])
        try FileManager.default.createSymbolicLink(atPath: dir + "/everything", withDestinationPath: "/")
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/up", withDestinationPath: "../..")
        let began = Date()
        let r = FolderListing(recursive: true).list(folder: dir)
        #expect(Self.names(r, in: dir) == ["a/x.png", "top.png"])
        #expect(Date().timeIntervalSince(began) < 5)
        #expect(r.skippedOther >= 2, "the links out were not counted as left out")
    }

    @Test func sizeMtimeReverseAndRandomOrders() throws {
        let dir = try Self.folder(["big.png": Self.png + Data(count: 300), "small.png": Self.png,
                                   "middle.png": Self.png + Data(count: 100)])
        let now = Date()
        for (name, age) in [("big.png", 30.0), ("small.png", 10.0), ("middle.png", 20.0)] {
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-age)],
                                                  ofItemAtPath: dir + "/" + name)
        }
        #expect(Self.names(FolderListing(order: .size).list(folder: dir), in: dir) == ["small.png", "middle.png", "big.png"])
        #expect(Self.names(FolderListing(order: .mtime).list(folder: dir), in: dir) == ["big.png", "middle.png", "small.png"])
        #expect(Self.names(FolderListing(order: .mtime, reversed: true).list(folder: dir), in: dir)
                == ["small.png", "middle.png", "big.png"])
        #expect(Self.names(FolderListing(order: .name).list(folder: dir), in: dir) == ["big.png", "middle.png", "small.png"])
        let shuffled = FolderListing(order: .random).list(folder: dir)
        #expect(Set(Self.names(shuffled, in: dir)) == ["small.png", "middle.png", "big.png"])
    }

    /// A JPEG start with an EXIF block whose IFD0 holds only DateTime (0x0132).
    static func jpegTaken(_ date: String) -> Data {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]  // big-endian, IFD0 at 8
        tiff += [0, 1]                                             // one entry
        tiff += [0x01, 0x32, 0, 2, 0, 0, 0, 20, 0, 0, 0, 26]       // DateTime, ASCII, 20 bytes at 26
        tiff += [0, 0, 0, 0]                                       // no next IFD
        tiff += Array(date.utf8) + [0]
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let length = app1.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1 + [0xFF, 0xD9])
    }

    @Test func exifDateOrderReadsWhenThePhotoWasTaken() throws {
        let dir = try Self.folder(["a.jpg": Self.jpegTaken("2021:05:01 10:00:00"),
                                   "b.jpg": Self.jpegTaken("2019:01:01 08:30:00"),
                                   "c.jpg": Self.jpegTaken("2020:12:31 23:59:59")])
        #expect(Self.names(FolderListing(order: .exifDate).list(folder: dir), in: dir) == ["b.jpg", "c.jpg", "a.jpg"])
    }

    @Test func aroundAFileStartsAtIt() throws {
        let dir = try Self.folder(["p1.png": Self.png, "p2.png": Self.png, "p3.png": Self.png, "readme.txt": Data()])
        let r = FolderListing().list(around: dir + "/p2.png")
        #expect(Self.names(r, in: dir) == ["p1.png", "p2.png", "p3.png"])
        #expect(r.startIndex == 1)
        // A file asked for by name is shown even when the folder listing would leave it out.
        let t = FolderListing().list(around: dir + "/readme.txt")
        #expect(t.files[t.startIndex] == dir + "/readme.txt")
    }

    @Test func anUnreadableFolderIsOneLine() throws {
        let r = FolderListing().list(folder: "/nonexistent-\(UUID().uuidString)")
        #expect(r.files.isEmpty)
        #expect(r.problems.count == 1)
        #expect(r.problems.first?.contains("No such file or directory") == true)
    }
}
