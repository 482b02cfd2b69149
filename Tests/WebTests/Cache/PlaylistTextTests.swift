import Foundation
import Testing
@testable import Web

/// No cache keeps a web playlist; these are the first bytes that make one, and some that
/// only look close.
@Suite struct PlaylistTextTests {
    static func begins(_ text: String, bom: Bool = false) -> Bool {
        let bytes = (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
        return bytes.withUnsafeBytes { PlaylistText.begins($0) }
    }

    @Test func playlistsAreRecognised() {
        #expect(Self.begins("#EXTM3U\n#EXT-X-VERSION:3\n"))
        #expect(Self.begins("#EXTM3U\r\n", bom: true))
        #expect(Self.begins("\n  #EXTM3U\n"))
        #expect(Self.begins("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\">"))
        #expect(Self.begins("<MPD type=\"dynamic\">"))
        #expect(Self.begins("<?xml version=\"1.0\"?><!-- made by a packager --><MPD>"))
    }

    /// HLS and DASH are told apart: a DASH stream cannot be read by a worker.
    @Test func theKindIsTold() {
        func kind(_ text: String) -> PlaylistText.Kind? { Array(text.utf8).withUnsafeBytes { PlaylistText.kind($0) } }
        #expect(kind("#EXTM3U\n") == .hls)
        #expect(kind("<?xml version=\"1.0\"?>\n<MPD>") == .dash)
        #expect(kind("<html>") == nil)
    }

    @Test func otherBytesAreNot() {
        #expect(!Self.begins(""))
        #expect(!Self.begins("#EXTINF:10,\nsegment.ts\n"))
        #expect(!Self.begins("<!DOCTYPE html><html><body>MPD</body></html> <MPD"), "an HTML page naming MPD in text")
        #expect(!Self.begins("<MPDX>"))
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46]
        #expect(!jpeg.withUnsafeBytes { PlaylistText.begins($0) })
    }

    /// A file on disk is read from its start whatever its descriptor's offset.
    @Test func aFileIsReadFromItsStart() throws {
        let path = NSTemporaryDirectory() + "/playlist-\(UUID().uuidString).m3u8"
        try Data("#EXTM3U\n#EXTINF:2,\na.ts\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(PlaylistText.begins(path: path))
        #expect(!PlaylistText.begins(path: path + ".missing"))
    }
}
