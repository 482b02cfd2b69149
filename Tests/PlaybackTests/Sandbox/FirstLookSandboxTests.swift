import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// A photo's first look from the worker that decodes it: the camera's EXIF thumbnail (blue
/// with a lime corner in these fixtures, where the photo is red) turned as the photo is,
/// the same pixels as made in-process; an eighth-size decode only where it is allowed;
/// nothing for a file that is not a JPEG.
@Suite(.serialized) struct FirstLookSandboxTests {
    let pool = DecodeWorkers(timeout: 10, testing: true)

    init() { FFmpegLog.quiet }

    func options(_ allowed: FirstLook.Allowed) -> PlayerOptions {
        var o = PlayerOptions()
        o.targetSize = (800, 600)
        o.firstLook = allowed
        return o
    }

    /// The worker's first looks and the photo it then decoded.
    func decode(_ path: String, _ allowed: FirstLook.Allowed) throws -> (looks: [StillPixels], photo: StillPixels) {
        var looks: [StillPixels] = []
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard case .picture(let p) = try pool.still(bytes, name: "photo.jpg", options: options(allowed),
                                                    glance: { looks.append($0.pixels) }) else {
            throw FixtureError("no worker")
        }
        return (looks, p.pixels)
    }

    /// The colour name at (x, y).
    static func colour(_ p: StillPixels, _ x: Int, _ y: Int) -> String {
        let i = (y * p.width + x) * 4
        let (r, g, b) = p.format == .rgba ? (p.bytes[i], p.bytes[i + 1], p.bytes[i + 2]) : (p.bytes[i + 2], p.bytes[i + 1], p.bytes[i])
        if r > 190 && g < 70 && b < 70 { return "red" }
        if g > 190 && r < 70 && b < 70 { return "lime" }
        if b > 190 && r < 70 && g < 70 { return "blue" }
        return "(\(r),\(g),\(b))"
    }

    @Test func theCameraThumbnailComesFirstTurnedAsThePhoto() throws {
        defer { pool.stopAll() }
        let path = try Fixtures.cameraJPEG(orientation: 6)
        let (looks, photo) = try decode(path, .cameraThumbnail)
        try #require(looks.count == 1)
        let look = looks[0]
        #expect((look.width, look.height, look.rotation) == (160, 120, 90))
        #expect(Self.colour(look, 20, 15) == "lime" && Self.colour(look, 140, 100) == "blue")
        #expect(Self.colour(photo, photo.width / 2, photo.height / 2) == "red" && photo.rotation == 90)
        let here = StillWork.glance([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), name: "photo.jpg",
                                    target: (800, 600), maxPixels: PlayerOptions().source.maxPixels,
                                    displayProfile: nil, allowed: .cameraThumbnail)
        #expect(here?.pixels == look, "the worker's first look differs from the one made in-process")
        #expect(pool.firstLooksDecoded == 1 && pool.picturesDecoded == 1)
    }

    @Test(arguments: [Fixtures.ExifThumbnail.offsetPastTheEnd, .lengthPastTheEnd, .notAJPEG])
    func aDamagedThumbnailGivesTheEighthOnlyWhereAllowed(damage: Fixtures.ExifThumbnail) throws {
        defer { pool.stopAll() }
        let path = try Fixtures.cameraJPEG(thumbnail: damage)
        let ahead = try decode(path, .cameraThumbnail)
        #expect(ahead.looks.isEmpty, "a photo opened ahead got an eighth-size decode")
        #expect(Self.colour(ahead.photo, 320, 240) == "red")
        let waited = try decode(path, .thumbnailOrEighth)
        try #require(waited.looks.count == 1)
        #expect((waited.looks[0].width, waited.looks[0].height) == (80, 60))
        #expect(Self.colour(waited.looks[0], 40, 30) == "red")
    }

    @Test func noFirstLookIsAskedForAPictureThatIsNotAJPEG() throws {
        defer { pool.stopAll() }
        let (looks, photo) = try decode(try Fixtures.solidImage("blue", width: 64, height: 48), .thumbnailOrEighth)
        #expect(looks.isEmpty && pool.firstLooksDecoded == 0)
        #expect(Self.colour(photo, 32, 24) == "blue")
    }
}
