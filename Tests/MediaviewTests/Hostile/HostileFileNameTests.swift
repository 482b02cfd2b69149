import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// A Latin-1 name (`caf\xE9.png`, a byte that is not UTF-8) through every way a file
    /// reaches the player besides the command line's plain path and the folder: the trash
    /// and back, the IPC socket as mpv speaks it, a `file://%E9` URL, and a drop.
    @Suite struct HostileFileNames {
        /// `caf` + Latin-1 é + `.png`.
        static let latin1 = Array("caf".utf8) + [0xE9] + Array(".png".utf8)

        /// A copy of `source` in `dir` under the name `name` (bytes), which no Swift string
        /// can spell; the full path's bytes.
        static func place(_ source: String, in dir: String, as name: [UInt8]) throws -> [UInt8] {
            let path = Array(dir.utf8) + [UInt8(ascii: "/")] + name
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            let fd = (path + [0]).withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
            }
            try #require(fd >= 0, "cannot make the Latin-1 file")
            defer { close(fd) }
            try #require(data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == data.count)
            return path
        }

        /// Whether a file is at the path these bytes spell.
        static func exists(_ path: [UInt8]) -> Bool {
            var st = stat()
            return (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &st) } } == 0
        }

        /// The text of the file at the path these bytes spell.
        static func contents(_ path: [UInt8]) -> String? {
            let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) } }
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &buffer, buffer.count)
            return n >= 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
        }

        /// `Delete` moves the Latin-1 file to the trash under its own name and records it as
        /// `caf%E9.png`, so a file manager can put it back; `u` brings it back, same bytes.
        @Test func aLatin1NameGoesToTheTrashAndComesBack() throws {
            let data = try TestEnvironment.require("XDG_DATA_HOME")
            let dir = try Scratch.directory("latin1-trash")
            let original = try Self.place(try Fixtures.solidImage("blue", width: 64, height: 48), in: dir, as: Self.latin1)
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("red", width: 64, height: 48), toPath: dir + "/z.png")
            let s = try TrashKeys.start([dir])
            try xdotool(["key", "--window", s.window, "Delete"])
            let trashed = try #require(Events.waitFor(s.log, "trashed", index: 0), "stderr: \(s.run.stderr)")
            #expect(trashed["path"] as? String != nil, "\(trashed)")
            #expect(!Self.exists(original), "the file is still where it was")
            let info = Array((data + "/Trash/info/").utf8) + Self.latin1 + Array(".trashinfo".utf8)
            let text = try #require(Self.contents(info), "no caf\\xE9.png.trashinfo in the trash")
            #expect(text.contains("Path=\(dir)/caf%E9.png\n"), "\(text)")
            #expect(Self.exists(Array((data + "/Trash/files/").utf8) + Self.latin1), "the trash does not hold caf\\xE9.png")
            #expect(Events.waitFor(s.log, "first_frame", index: 1) != nil, "the next picture did not follow")

            try xdotool(["key", "--window", s.window, "u"])
            #expect(Events.waitFor(s.log, "restored") != nil, "u did not bring it back; stderr: \(s.run.stderr)")
            #expect(Self.exists(original), "caf\\xE9.png is not back under its own name")
            #expect(!Self.exists(info), "the .trashinfo stayed")
            let ended = try TrashKeys.quit(s)
            #expect(ended.status == 0 && ended.stderr.isEmpty, "stderr: \(ended.stderr)")
        }

        /// On the command line as a `file://` URL with the byte escaped: it opens, silently.
        @Test func aFileURLWithAnEscapedLatin1ByteOpens() throws {
            let dir = try Scratch.directory("latin1-url")
            _ = try Self.place(try Fixtures.solidImage("blue"), in: dir, as: Self.latin1)
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "1", "file://\(dir)/caf%E9.png"])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            #expect(window.waitFor(probe) { $0.matches($0.width / 2, $0.height / 2, RGB.blue) } != nil,
                    "file://…/caf%E9.png did not show; stderr: \(run.stderr)")
            let end = try #require(run.finish(timeout: 15))
            #expect(end.status == 0 && end.stderr.isEmpty, "status \(end.status); stderr: \(end.stderr)")
        }

        /// A file manager's `text/uri-list` naming the file (`caf%E9.png`): dropped, it shows.
        @Test func aDroppedURIListNamingALatin1FileShows() throws {
            let dir = try Scratch.directory("latin1-drop")
            _ = try Self.place(try Fixtures.solidImage("blue"), in: dir, as: Self.latin1)
            let s = try RunningViewer([try Fixtures.solidImage("red")])
            let source = try XdndSource()
            source.drop(Data("file://\(dir)/caf%E9.png\r\n".utf8), onto: s.window.id)
            #expect(source.finished == true, "the window did not accept the drop")
            #expect(s.shows(RGB.blue), "the dropped caf\\xE9.png is not on screen; stderr: \(s.run.stderr)")
            #expect(lines(s.run.stderr).isEmpty, "\(s.run.stderr)")
        }

        /// `loadfile` with the name's raw byte, as mpv takes it, and as a `file://%E9` URL:
        /// each shows the picture, and `path` and `filename` come back as the name's bytes,
        /// as mpv sends them, so a script can hand them back.
        @Test func loadfileTakesAndReportsTheNamesBytesAsMpvDoes() throws {
            let dir = try Scratch.directory("latin1-ipc")
            let blue = try Self.place(try Fixtures.solidImage("blue"), in: dir, as: Self.latin1)
            let green = try Self.place(try Fixtures.solidImage("lime"), in: dir, as: Array("d".utf8) + [0xE9] + Array("j.png".utf8))
            let ipc = try IPC.start([try Fixtures.solidImage("red")])
            #expect(IPC.shows(ipc, RGB.red))
            let raw = try RawIPCClient(path: ipc.socket)
            let loaded = try raw.request(Array(#"{"command":["loadfile",""#.utf8) + blue + Array(#""],"request_id":1}"#.utf8), id: 1)
            #expect(loaded.contains(Array(#""error":"success""#.utf8)), "\(String(decoding: loaded, as: UTF8.self))")
            #expect(IPC.shows(ipc, RGB.blue), "loadfile with the raw byte did not show the file; stderr: \(ipc.run.stderr)")
            let path = try raw.request(Array(#"{"command":["get_property","path"],"request_id":2}"#.utf8), id: 2)
            #expect(path.starts(with: Array(#"{"data":""#.utf8) + blue + [UInt8(ascii: "\"")]),
                    "path is not the name's bytes: \(String(decoding: path, as: UTF8.self).debugDescription)")
            let name = try raw.request(Array(#"{"command":["get_property","filename"],"request_id":3}"#.utf8), id: 3)
            #expect(name.starts(with: Array(#"{"data":""#.utf8) + Self.latin1 + [UInt8(ascii: "\"")]),
                    "filename is not the name's bytes: \(String(decoding: name, as: UTF8.self).debugDescription)")

            let url = "file://\(dir)/d%E9j.png"
            _ = try raw.request(Array(#"{"command":["loadfile","\#(url)"],"request_id":4}"#.utf8), id: 4)
            #expect(IPC.shows(ipc, 0x00FF00), "loadfile with file://…%E9 did not show the file; stderr: \(ipc.run.stderr)")
            let urlPath = try raw.request(Array(#"{"command":["get_property","path"],"request_id":5}"#.utf8), id: 5)
            #expect(urlPath.starts(with: Array(#"{"data":""#.utf8) + Array(url.utf8) + [UInt8(ascii: "\"")])
                    || urlPath.starts(with: Array(#"{"data":""#.utf8) + green + [UInt8(ascii: "\"")]),
                    "path: \(String(decoding: urlPath, as: UTF8.self).debugDescription)")
            try IPC.quit(ipc)
        }
    }
}
