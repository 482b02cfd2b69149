import Foundation
import Glibc
import Testing
import TestSupport
@testable import Playback

/// What the info panel and the sort by date taken read from a photo's EXIF: a camera's
/// photo gives its facts in either byte order, and a crafted or odd file gives none of
/// the facts it lies about, without a crash, a loop or a wait.
@Suite(.serialized) struct PhotoMetadataTests {
    /// The facts the camera fixtures' EXIF says, as the info panel lists them.
    static let cameraFacts = [
        "Taken: Sun Jul 14 18:22:05 2024", "Camera: Canon EOS R5", "Lens: RF35mm F1.8 MACRO IS STM",
        "Exposure: f/1.8, 1/250 s, ISO 100, 35 mm", "Place: 48.8584° N, 2.2945° E",
    ]

    /// 2024-07-14 18:22:05, the camera's wall clock read as UTC.
    static let cameraTime = 1_720_981_325.0

    static func lines(_ path: String) -> [String] {
        PhotoMetadata.describe(path: path).map { "\($0.label): \($0.value)" }
    }

    /// A JPEG file's start holding `tiff` as its EXIF segment; `claim` overrides the
    /// segment's length (a lying one).
    static func file(_ name: String, tiff: [UInt8], claim: Int? = nil) throws -> String {
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = claim ?? body.count + 2
        let jfif: [UInt8] = [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let bytes = [0xFF, 0xD8] + jfif + [0xFF, 0xE1, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body + [0xFF, 0xD9]
        return try Fixtures.bytes("pm-" + name + ".jpg", Data(bytes))
    }

    @Test func aCameraPhotoGivesItsDateCameraLensExposureAndPlace() throws {
        let photo = try Fixtures.cameraPhoto()
        #expect(Self.lines(photo) == Self.cameraFacts)
        #expect(PhotoMetadata.dateTaken(path: photo) == Self.cameraTime)
        // The same bytes handed over whole read the same (what the fuzzer drives).
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        #expect(PhotoMetadata.describe(jpeg: bytes).map { "\($0.label): \($0.value)" } == Self.cameraFacts)
    }

    @Test("Intel and Motorola byte orders read the same facts", arguments: [false, true])
    func bothByteOrders(bigEndian: Bool) throws {
        let path = try Self.file(bigEndian ? "mm" : "ii", tiff: ExifWriter(bigEndian: bigEndian).camera())
        #expect(Self.lines(path) == Self.cameraFacts)
        #expect(PhotoMetadata.dateTaken(path: path) == Self.cameraTime)
    }

    @Test func textStoredInsideItsEntryIsRead() throws {
        let w = ExifWriter(bigEndian: true)
        let tiff = w.tiff(ifd0: [w.ascii(0x010F, "Leic"), w.ascii(0x0110, "M11")])
        #expect(Self.lines(try Self.file("inline", tiff: tiff)) == ["Camera: Leic M11"])
    }

    @Test func textPointingPastTheSegmentIsAbsent() throws {
        let w = ExifWriter(bigEndian: false)
        let past = w.entry(0x010F, type: 2, count: 10, value: w.u32(0x10000))
        let tiff = w.tiff(ifd0: [past, w.ascii(0x0110, "Canon EOS R5")])
        #expect(Self.lines(try Self.file("past", tiff: tiff)) == ["Camera: Canon EOS R5"])
    }

    @Test func countsOfFourBillionAreAbsent() throws {
        let w = ExifWriter(bigEndian: false)
        let huge = 0xFFFF_FFFF
        let tiff = w.tiff(ifd0: [w.entry(0x0132, type: 2, count: huge, value: w.u32(8)),
                                 w.entry(0x010F, type: 2, count: huge, value: w.u32(0))],
                          exif: [w.entry(0x829D, type: 5, count: huge, value: w.u32(8)),
                                 w.entry(0x920A, type: 5, count: huge, value: w.u32(0))])
        let path = try Self.file("huge", tiff: tiff)
        #expect(Self.lines(path).isEmpty)
        #expect(PhotoMetadata.dateTaken(path: path) == nil)
    }

    @Test func aDenominatorOfZeroGivesNoValue() throws {
        let w = ExifWriter(bigEndian: true)
        let gps = [w.ascii(1, "N"), w.rationals(2, [(48, 1), (51, 0), (0, 1)]), w.ascii(3, "E"), w.rationals(4, [(2, 1), (17, 1), (0, 1)])]
        let tiff = w.tiff(ifd0: [], exif: [w.rationals(0x829D, [(18, 0)]), w.rationals(0x829A, [(1, 250)])], gps: gps)
        #expect(Self.lines(try Self.file("zero", tiff: tiff)) == ["Exposure: 1/250 s"])
    }

    /// A date no calendar has is shown as written and sorts as undated.
    @Test func aYearPastAnyCalendarIsShownAsWritten() throws {
        let w = ExifWriter(bigEndian: false)
        let path = try Self.file("year", tiff: w.tiff(ifd0: [w.ascii(0x0132, "99999999999:07:14 18:22:05")]))
        #expect(Self.lines(path) == ["Taken: 99999999999:07:14 18:22:05"])
        #expect(PhotoMetadata.dateTaken(path: path) == nil)
    }

    @Test func directoriesThatNameThemselvesEnd() throws {
        let w = ExifWriter(bigEndian: false)
        // IFD0 at 8 names itself as its Exif and GPS sub-IFDs and as the IFD after it.
        let tiff = w.tiff(ifd0: [w.entry(0x8769, type: 4, count: 1, value: w.u32(8)),
                                 w.entry(0x8825, type: 4, count: 1, value: w.u32(8)), w.ascii(0x010F, "Nik")], next: 8)
        let path = try Self.file("self", tiff: tiff)
        #expect(Self.lines(path) == ["Camera: Nik"])
        #expect(PhotoMetadata.dateTaken(path: path) == nil)
    }

    @Test func aCutSegmentGivesNothing() throws {
        let camera = ExifWriter(bigEndian: false).camera()
        // The segment says it is longer than the file; and a TIFF cut inside IFD0.
        #expect(Self.lines(try Self.file("lying", tiff: camera, claim: 0xFFF0)).isEmpty)
        #expect(Self.lines(try Self.file("cut", tiff: Array(camera.prefix(40)))).isEmpty)
        #expect(PhotoMetadata.dateTaken(path: try Self.file("cut", tiff: Array(camera.prefix(40)))) == nil)
    }

    @Test func anEmptyFileADirectoryAndADeviceGiveNothing() throws {
        let empty = try Fixtures.bytes("pm-empty.jpg", Data())
        for path in [empty, Fixtures.directory, "/dev/zero", "/nonexistent/photo.jpg"] {
            #expect(PhotoMetadata.dateTaken(path: path) == nil, "\(path)")
            #expect(PhotoMetadata.describe(path: path).isEmpty, "\(path)")
        }
    }

    /// Sorting a downloads folder by date taken reads every file in it: a FIFO there must
    /// not hold the sort until some program writes to it.
    @Test func aFIFOIsNotWaitedOn() throws {
        let fifo = Fixtures.directory + "/pm-fifo-\(getpid()).jpg"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // Should a read wait on the FIFO, a writer comes every 3 s and ends the wait, so the
        // test fails on the time taken instead of hanging.
        let done = DispatchSemaphore(value: 0)
        let release = Thread {
            while done.wait(timeout: .now() + 3) == .timedOut {
                let fd = open(fifo, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
        }
        release.start()
        let start = Date()
        #expect(PhotoMetadata.dateTaken(path: fifo) == nil)
        #expect(PhotoMetadata.describe(path: fifo).isEmpty)
        let took = Date().timeIntervalSince(start)
        done.signal()
        #expect(took < 1.5, "waited \(took) s on a FIFO")
    }
}
