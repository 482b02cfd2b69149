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

    /// The worker decodes the photo beside its first look, so the sharp picture does not wait
    /// for the small one: what it answers must be that photo, pixel for pixel as when no
    /// look was asked.
    @Test func thePhotoDecodedBesideItsLookIsThePhoto() throws {
        defer { pool.stopAll() }
        let path = try Fixtures.cameraJPEG(orientation: 6, thumbnail: .notAJPEG, grainy: true)
        let looked = try decode(path, .thumbnailOrEighth)
        try #require(looked.looks.count == 1)
        let plain = try decode(path, .none)
        #expect(plain.looks.isEmpty)
        #expect(looked.photo == plain.photo, "the photo decoded beside its first look differs")
        #expect(looked.photo.rotation == 90 && looked.photo.width == 640)
    }

    /// A worker asked for one photo's look and then for another picture decodes the one
    /// asked for, not the photo it began beside the look.
    @Test func aDecodeAfterAnotherPhotosLookIsOfItsOwnPicture() throws {
        defer { pool.stopAll() }
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixtures.cameraJPEG(thumbnail: .notAJPEG))))
        let blue = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixtures.solidImage("blue", width: 64, height: 48))))
        let o = options(.thumbnailOrEighth)
        let worker = try #require(try pool.confinedWorker(WorkerKind.forStill(Array(photo.prefix(PictureFormat.headSize)),
                                                                               name: "photo.jpg"), name: "photo.jpg", options: o))
        func request(_ bytes: [UInt8], _ kind: WorkerMessage.Kind, _ name: String) throws -> WorkerMessage {
            let (fd, icc) = try #require(pool.requestFile(bytes, options: o))
            var numbers: [Int64] = [Int64(icc), 800, 600, Int64(o.source.maxPixels), Int64(bytes.count)]
            if kind == .glance { numbers.append(1) }
            return WorkerMessage(kind: kind, numbers: numbers, text: name, fd: fd)
        }
        let glance = try request(photo, .glance, "photo.jpg")
        defer { close(glance.fd) }
        let look = try pool.answer(worker.exchange(glance, timeout: 10), worker: worker, name: "photo.jpg")
        #expect(look.kind == .picture)
        if look.fd >= 0 { close(look.fd) }
        let decode = try request(blue, .decode, "blue.png")
        defer { close(decode.fd) }
        guard case .picture(let p) = try pool.finish(worker.exchange(decode, timeout: 10), worker: worker, name: "blue.png") else {
            Issue.record("no picture")
            return
        }
        #expect((p.pixels.width, p.pixels.height) == (64, 48))
        #expect(Self.colour(p.pixels, 32, 24) == "blue")
    }
}
