import CSandbox
import Foundation
@testable import Playback
import TestSupport
import Testing

/// Pictures crossing from a worker to the viewer in memfds. A photo is decoded straight
/// into the memfd it is handed over in (not copied into a new one), and no one can write
/// to that memfd or cut it short afterwards. The viewer refuses a memfd whose size the
/// worker could still cut: reading past its new end would kill the viewer.
@Suite struct HandoverTests {
    // <linux/fcntl.h>'s seals, which the Glibc module leaves out.
    static let getSeals: Int32 = 1024 + 10
    static let (seal, shrink, grow, futureWrite): (Int32, Int32, Int32, Int32) = (0x1, 0x2, 0x4, 0x10)

    /// The red 640x480 camera photo decoded as a JPEG worker decodes it.
    func answer() throws -> WorkerMessage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixtures.cameraJPEG())))
        let still = try StillWork.decodeJPEG(bytes, name: "photo.jpg", target: nil, maxPixels: 1 << 24, displayProfile: nil)
        return try #require(still.answer())
    }

    @Test func aJPEGIsHandedOverInTheMemfdItWasDecodedIntoSealed() throws {
        let m = try answer()
        let seals = fcntl(m.fd, Self.getSeals)
        #expect(seals & Self.futureWrite != 0, "the picture was copied into a new memfd")
        #expect(seals & Self.shrink != 0 && seals & Self.grow != 0 && seals & Self.seal != 0)
        var byte: UInt8 = 0
        #expect(pwrite(m.fd, &byte, 1, 0) == -1 && errno == EPERM, "the handed-over picture could still be written")
        #expect(ftruncate(m.fd, 16) == -1, "the handed-over picture could be cut short")
        let picture = try #require(WorkerPicture(m))
        let p = picture.pixels
        #expect((p.width, p.height) == (640, 480))
        let i = (240 * p.width + 320) * 4
        let (r, g, b) = p.format == .rgba ? (p.bytes[i], p.bytes[i + 1], p.bytes[i + 2]) : (p.bytes[i + 2], p.bytes[i + 1], p.bytes[i])
        #expect(r > 190 && g < 70 && b < 70, "not the red photo: \(r),\(g),\(b)")
    }

    @Test func aPictureWhoseSizeIsNotSealedIsRefused() throws {
        let m = try answer()
        defer { close(m.fd) }
        let unsealed = sbx_memfd("test")
        try #require(unsealed >= 0)
        let size = Int(m.numbers[2] * m.numbers[1])
        try #require(ftruncate(unsealed, off_t(size)) == 0)
        var forged = m
        forged.fd = unsealed
        #expect(WorkerPicture(forged) == nil, "a memfd the worker could cut short was mapped")
        #expect(SealedBytes.map(m.fd, count: size) != nil, "a sealed one was refused")
    }
}
