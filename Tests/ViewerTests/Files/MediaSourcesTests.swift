import Playback
import Testing
import Viewer
import MediaCore

/// What a drop or a paste turns into: the paths and links that play, and one line about
/// the rest.
@Suite struct MediaSourcesTests {
    @Test func uriListFromAFileManager() {
        let text = "# copied by a file manager\r\nfile:///home/a/My%20Clip.mp4\r\nfile://localhost/tmp/b.png\r\n\r\n"
        let found = MediaSources(text: text, isURIList: true)
        #expect(found.sources == ["/home/a/My Clip.mp4", "/tmp/b.png"])
        #expect(found.problem(from: "drop") == nil)
    }

    @Test func textFromABrowserOrATerminal() {
        let found = MediaSources(text: "  https://example.org/v.mp4\n/tmp/x.gif\nHTTP://EXAMPLE.ORG/a.jpg\n", isURIList: false)
        #expect(found.sources == ["https://example.org/v.mp4", "/tmp/x.gif", "HTTP://EXAMPLE.ORG/a.jpg"])
    }

    /// Other schemes, other hosts, relative words and escaped NULs are left out and named.
    @Test func whatDoesNotPlayIsNamedOnce() {
        let text = "ftp://example.org/a.mp4\nfile://otherhost/x.png\nhello\nfile:///a%00b\nhttps://ok.example/v.webm"
        let found = MediaSources(text: text, isURIList: false)
        #expect(found.sources == ["https://ok.example/v.webm"])
        #expect(found.skipped == 4)
        #expect(found.problem(from: "clipboard") == "4 items of the clipboard skipped: not a file or an http(s) link ('ftp://example.org/a.mp4')")
    }

    /// Binary junk is refused whole, not read as thousands of odd names.
    @Test func binaryIsRefusedWhole() {
        let junk = String(decoding: [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x2F, 0x61], as: UTF8.self)
        let found = MediaSources(text: junk, isURIList: false)
        #expect(found.sources.isEmpty)
        #expect(found.problem(from: "clipboard") == "nothing to play in the clipboard: not a file or an http(s) link ('binary data')")
    }

    /// A pasted line that carries a terminal's escape sequence (a title change, a colour)
    /// is named with those characters blanked out: the message stays one plain line.
    @Test func aSkippedLineCannotDriveTheTerminal() {
        let found = MediaSources(text: "\u{1B}]0;owned\u{07}\u{1B}[31mred\u{2028}x\n", isURIList: false)
        let problem = found.problem(from: "clipboard") ?? ""
        #expect(problem == "nothing to play in the clipboard: not a file or an http(s) link ('\u{FFFD}]0;owned\u{FFFD}\u{FFFD}[31mred\u{FFFD}x')",
                "\(problem.debugDescription)")
    }

    /// A file manager's URI for a Latin-1 name (`caf%E9.png`) is that very file's bytes,
    /// and what the viewer copies for such a file pastes back as it.
    @Test func aLatin1NameRoundTrips() {
        let found = MediaSources(text: "file:///tmp/caf%E9.png\r\n", isURIList: true)
        #expect(found.sources.map(FileName.bytes) == [Array("/tmp/caf".utf8) + [0xE9] + Array(".png".utf8)])
        let copied = FileName.fileURL(absolutePath: found.sources.first ?? "")
        #expect(copied == "file:///tmp/caf%E9.png")
    }
}
