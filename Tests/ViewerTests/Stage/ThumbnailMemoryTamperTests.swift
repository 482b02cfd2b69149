import Foundation
import Testing
import TestSupport
@testable import Viewer

/// The thumbnail places file when another program has been in the state folder: a link
/// planted where the file is written beside, and a file far larger than any it writes.
@Suite struct ThumbnailMemoryTamperTests {
    private func folder() throws -> String {
        let dir = Fixtures.directory + "/thumbmem-tamper-\(UInt32.random(in: 0...UInt32.max))/state/mediaview"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return dir
    }

    @Test func aLinkPlantedBesideTheFileDoesNotOverwriteItsTarget() throws {
        let dir = try folder()
        let victim = dir + "/../victim.txt"
        try "keep me".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/thumbnail-places.new", withDestinationPath: victim)
        let m = ThumbnailMemory(path: dir + "/thumbnail-places")
        m.remember(Rect(x: 5, y: 6, width: 300, height: 200), for: "layoutA")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(m.frame(for: "layoutA") == Rect(x: 5, y: 6, width: 300, height: 200))
    }

    @Test func aHugeFileIsReadOnlyAsFarAsItsPlacesGo() throws {
        let dir = try folder()
        let path = dir + "/thumbnail-places"
        let line = "layoutB 1 2 300 200\n"
        // 4 MB of junk, then a place: a reader that went through the whole file would find it.
        let tail = "layoutZ 7 8 300 200\n"
        try Data((line + String(repeating: "junk junk junk junk\n", count: 200_000) + tail).utf8)
            .write(to: URL(fileURLWithPath: path))
        let m = ThumbnailMemory(path: path)
        #expect(m.frame(for: "layoutB") == Rect(x: 1, y: 2, width: 300, height: 200))
        #expect(m.frame(for: "layoutZ") == nil, "the whole file was read")
        m.remember(Rect(x: 3, y: 4, width: 300, height: 200), for: "layoutC")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size < 4096, "rewritten bounded: \(size) bytes")
    }

    /// Places no window could have (X coordinates are 16-bit) are ignored, the edges of
    /// what a number holds among them; the edges of the screen's coordinates are kept.
    @Test(arguments: ["9223372036854775807 0", "0 -9223372036854775808", "32768 0", "0 -32769"])
    func aPlaceBeyondWhatXCanHoldIsIgnored(place: String) throws {
        let path = try folder() + "/thumbnail-places"
        try "layoutD \(place) 320 240\nlayoutE -32768 32767 320 240\n".write(toFile: path, atomically: true, encoding: .utf8)
        let m = ThumbnailMemory(path: path)
        #expect(m.frame(for: "layoutD") == nil)
        #expect(m.frame(for: "layoutE") == Rect(x: -32768, y: 32767, width: 320, height: 240))
    }
}
